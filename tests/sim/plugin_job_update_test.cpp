// Job updates with the shipped plugins loaded from their .so files: a change of the job's labels or
// annotations alone reaches the PodGroup a later restart creates, as Volcano builds it from the job.
#include <gtest/gtest.h>

#include "host/cluster/sim/sim_cluster.h"
#include "host/cluster/sim/sim_driver.h"
#include "host/config/config.h"
#include "host/controller/controller.h"
#include "host/controller/virtual_clock.h"
#include "host/plugin/plugin_job_plugins.h"
#include "host/plugin/registry.h"
#include "tests/workload/job_fixtures.h"

namespace jobhost {
namespace {

/// Two workers of one container, with svc and coscheduling, labelled and annotated.
Job twoWorkers() {
  Job job = fixtures::job("train", {fixtures::task("worker", 2)});
  job.metadata.namespace_ = "team";
  job.metadata.uid.clear();  // the controller gives it one
  job.metadata.labels["team"] = "vision";
  job.metadata.annotations["owner"] = "ana";
  job.spec.plugins = {{"svc", {}}, {"coscheduling", {}}};
  job.spec.tasks[0].template_.spec.restartPolicy = "Never";
  return job;
}

class PluginJobUpdate : public ::testing::Test {
 protected:
  void SetUp() override {
    auto config = defaultHostConfig();
    ASSERT_TRUE(config) << config.error();
    config->pluginPath = {JOBHOST_PLUGIN_DIR};
    auto registry = Registry::load(*config);
    ASSERT_TRUE(registry) << registry.error();
    plugins = std::make_unique<PluginJobPlugins>(*registry, std::map<std::string, int32_t>{});
    sim = std::make_unique<SimCluster>(clock, SimBackendConfig{});
    sim->setBehaviour([](const Pod&, int) {
      PodBehaviour b;
      b.runForMs = std::nullopt;  // until deleted
      return b;
    });
    controller = std::make_unique<Controller>(ControllerConfig{2, 15}, clock, *sim, *plugins);
    driver = std::make_unique<SimDriver>(clock, *sim, *controller);
    controller->start();
  }
  void TearDown() override {
    if (controller) controller->stop();
  }
  std::optional<PodGroup> podGroup() {
    auto job = controller->getJob("team", "train");
    return job ? sim->getPodGroup("team", "train-" + job->metadata.uid) : std::nullopt;
  }

  VirtualClock clock{0};
  std::unique_ptr<PluginJobPlugins> plugins;
  std::unique_ptr<SimCluster> sim;
  std::unique_ptr<Controller> controller;
  std::unique_ptr<SimDriver> driver;
};

TEST_F(PluginJobUpdate, ARestartedJobsPodGroupCarriesLabelsAndAnnotationsChangedAlone) {
  ASSERT_TRUE(controller->submitJob(twoWorkers()));
  driver->runUntil(5'000);
  ASSERT_EQ(controller->getJob("team", "train")->status.state.phase, JobPhase::Running);
  ASSERT_EQ(podGroup()->metadata.labels.at("team"), "vision");

  Job updated = *controller->getJob("team", "train");
  updated.metadata.labels["team"] = "speech";
  updated.metadata.annotations["owner"] = "bo";
  ASSERT_TRUE(controller->updateJob(updated));
  EXPECT_EQ(podGroup()->metadata.labels.at("team"), "vision");  // an existing PodGroup keeps its own

  ASSERT_TRUE(controller->issueCommand(Command{"team", "train", "RestartJob", "", "", ""}));
  driver->runUntil(10'000);
  auto job = controller->getJob("team", "train");
  ASSERT_EQ(job->status.state.phase, JobPhase::Running);
  EXPECT_EQ(job->status.retryCount, 1);
  auto pg = podGroup();
  ASSERT_TRUE(pg);
  EXPECT_EQ(pg->metadata.labels.at("team"), "speech");
  EXPECT_EQ(pg->metadata.annotations.at("owner"), "bo");
}

}  // namespace
}  // namespace jobhost
