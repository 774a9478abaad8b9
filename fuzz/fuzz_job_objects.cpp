// Fuzz target: the ConfigMaps and Secrets a job file holds beside its jobs (parseJobs with other
// kinds kept, then decodeConfigMap / decodeSecret: maps, base64, names, keys, size limits).
#include <string_view>
#include <vector>

#include "host/spec/job_loader.h"
#include "host/spec/object_decode.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<jobhost::OtherObject> others;
  (void)jobhost::parseJobs(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.yaml", &others);
  for (const auto& o : others) {
    if (o.kind == "ConfigMap") (void)jobhost::decodeConfigMap(o.source);
    if (o.kind == "Secret") (void)jobhost::decodeSecret(o.source);
  }
  return 0;
}
