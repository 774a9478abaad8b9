// runSimulation end to end: the JSON lines and the final status for scripted timelines.
#include <gtest/gtest.h>

#include <sstream>

#include "../controller/controller_fixture.h"
#include "host/cluster/sim/run_simulation.h"

namespace jobhost::testing {
namespace {

std::string simulate(const Job& job, const std::string& yaml, int workers = 3) {
  auto script = parseSimulationScript(yaml, "script.yaml");
  EXPECT_TRUE(script.ok()) << (script.ok() ? "" : script.error());
  NoPluginJobPlugins plugins;
  ControllerConfig config;
  config.workers = workers;
  std::ostringstream out;
  EXPECT_TRUE(runSimulation(job, *script, plugins, config, out).isOk());
  return out.str();
}

TEST(Simulate, SmokePrintsLines) {
  Job job = makeJob("pt", {{"worker", 2}});
  std::string out = simulate(job, "defaults: {startAfter: 1s, runFor: 10s}\n");
  std::cout << out;
  EXPECT_NE(out.find("\"final\""), std::string::npos);
}

}  // namespace
}  // namespace jobhost::testing
