// Fuzz target: job files as YAML streams (host/spec parseJobs; text starting with { or [ takes
// the JSON path, which fuzz_job_json covers on purpose).
#include <string_view>

#include "host/spec/job_loader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  (void)jobhost::parseJobs(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.yaml");
  return 0;
}
