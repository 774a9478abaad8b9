// Fuzz target: the host config file parser (host/config parseHostConfig), strict JSON with
// positions, durations, quantities and the semantic checks.
#include <string_view>

#include "host/config/config.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  (void)jobhost::parseHostConfig(std::string_view(reinterpret_cast<const char*>(data), size), "/etc/fuzz.json");
  return 0;
}
