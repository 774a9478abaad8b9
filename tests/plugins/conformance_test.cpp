// The negative suite for each shipped plugin (jobhost::testing::runConformance): every
// plugin loaded from its .so with the plugins Volcano's mutation adds beside it, on a job naming it.
#include <gtest/gtest.h>

#include <jobhost/testing/testing.h>

namespace jobhost::testing {
namespace {

struct Case {
  std::string plugin;
  std::vector<std::string> loaded;  // in config order
  friend void PrintTo(const Case& c, std::ostream* os) { *os << c.plugin; }
};

// A master (1) and worker (2) job in team-a that names `plugin` in spec.plugins; ray's first task
// is its head (each of its pods needs one).
std::string jobNaming(const std::string& plugin) {
  const std::string first = plugin == "ray" ? "head" : "master";
  return R"(
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: conform, namespace: team-a}
spec:
  minAvailable: 3
  plugins: {)" + plugin + R"(: []}
  tasks:
    - name: )" + first + R"(
      replicas: 1
      template: {spec: {restartPolicy: Never, containers: [{name: main, image: busybox}]}}
    - name: worker
      replicas: 2
      template: {spec: {restartPolicy: Never, initContainers: [{name: init, image: busybox}],
                        containers: [{name: main, image: busybox}]}}
)";
}

class ShippedPluginConformance : public ::testing::TestWithParam<Case> {};

TEST_P(ShippedPluginConformance, PassesTheNegativeSuite) {
  std::vector<PluginSource> sources;
  for (const auto& name : GetParam().loaded) sources.push_back(shipped(name));
  Harness h(std::move(sources));
  ASSERT_TRUE(h.ok()) << h.loadError();
  ConformanceReport report = checkConformance(h, jobNaming(GetParam().plugin));
  for (const auto& f : report.failures) ADD_FAILURE() << f;
  // Every loaded plugin had its unknown-flag check, and hooks ran (idempotency and undo checks).
  for (const auto& name : GetParam().loaded)
    EXPECT_NE(std::find(report.checks.begin(), report.checks.end(),
                        name + ": unknown flag is an admission warning naming plugin and flag"),
              report.checks.end());
  EXPECT_NE(std::find(report.checks.begin(), report.checks.end(), GetParam().plugin + ": OnJobDelete undoes OnJobAdd"),
            report.checks.end());
  EXPECT_NE(std::find(report.checks.begin(), report.checks.end(),
                      GetParam().plugin + ": a throwing OnJobAdd is reported naming the plugin"),
            report.checks.end());
}

INSTANTIATE_TEST_SUITE_P(Shipped, ShippedPluginConformance,
                         ::testing::Values(Case{"env", {"env"}}, Case{"svc", {"svc"}}, Case{"ssh", {"ssh"}},
                                           Case{"torch", {"svc", "torch"}}, Case{"mpi", {"svc", "ssh", "mpi"}},
                                           Case{"tensorflow", {"svc", "tensorflow"}}, Case{"ray", {"svc", "ray"}},
                                           Case{"hcclrank", {"hcclrank"}},
                                           Case{"coscheduling", {"coscheduling"}}),
                         [](const auto& info) { return info.param.plugin; });

}  // namespace
}  // namespace jobhost::testing
