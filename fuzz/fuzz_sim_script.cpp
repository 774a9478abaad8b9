// Fuzz target: the `jobhost simulate` script parser (host/cluster/sim parseSimulationScript).
#include <string_view>

#include "host/cluster/sim/simulation_script.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  (void)jobhost::parseSimulationScript(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.yaml");
  return 0;
}
