// Fuzz target: the SDK's Go-style flag parser (FlagSet). Each input line is one argument; flags of
// every kind are defined, and remaining() is read back after parsing.
#include <string>
#include <vector>

#include "jobhost/flags.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<std::string> args(1);
  for (size_t i = 0; i < size; ++i) {
    if (data[i] == '\n') args.emplace_back();
    else args.back().push_back(static_cast<char>(data[i]));
  }
  std::string s;
  int64_t i64 = 0;
  int32_t i32 = 0;
  bool b = false;
  jobhost::FlagSet flags("fuzz");
  flags.addString("name", &s);
  flags.addInt("count", &i64);
  flags.addInt("port", &i32);
  flags.addBool("enabled", &b);
  (void)flags.parse(args);
  size_t n = 0;
  for (const auto& r : flags.remaining()) n += r.size();
  return n > size ? 1 : 0;
}
