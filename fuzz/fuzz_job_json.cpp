// Fuzz target: job files as JSON (host/spec parseJobs' RapidJSON path and the job decoder). Inputs
// that would take the YAML path get a leading '[' so every input exercises the JSON parser.
#include <string>

#include "host/spec/job_loader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos || (text[first] != '{' && text[first] != '[')) text.insert(0, "[");
  (void)jobhost::parseJobs(text, "fuzz.json");
  return 0;
}
