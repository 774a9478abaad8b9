// A plugin that throws, fails or hangs past pluginCallTimeout at each extension point and hook:
// the job gets a reason naming the plugin and the point, and jobs beside it still complete.
#include <gtest/gtest.h>

#include <array>
#include <mutex>

#include "host/cluster/sim/sim_cluster.h"
#include "host/cluster/sim/sim_driver.h"
#include "host/controller/controller.h"
#include "host/controller/virtual_clock.h"
#include "host/plugin/plugin_job_plugins.h"
#include "host/plugin/plugin_validation.h"
#include "jobhost/extension_points.h"

namespace jobhost {
namespace {

// The deadline is real time; 50 ms keeps hanging tests short. Nothing here asserts timing.
const std::string kConfig = R"({"pluginCallTimeout": "50ms", "plugins": [{"name": "faulty", "path": ")" +
                            std::string(JOBHOST_FIXTURE_DIR) + R"(/libjobhost_faulty.so"}]})";

Job makeJob(const std::string& name, std::vector<std::string> faultyArgs, bool withFaulty = true) {
  Job job;
  job.metadata.name = name;
  job.metadata.namespace_ = "faults";
  job.spec.queue = "default";
  job.spec.schedulerName = "volcano";
  job.spec.maxRetry = 3;
  job.spec.minAvailable = 2;
  TaskSpec task;
  task.name = "worker";
  task.replicas = 2;
  task.maxRetry = 3;
  Container c;
  c.name = "main";
  c.image = "busybox";
  task.template_.spec.containers.push_back(c);
  task.template_.spec.restartPolicy = "Never";
  job.spec.tasks.push_back(task);
  if (withFaulty) job.spec.plugins["faulty"] = std::move(faultyArgs);
  return job;
}

struct Fault {
  std::string site;  // the fixture's flag
  std::string mode;  // throw | error | hang
  std::string point;
  std::string method;  // what the SDK barrier calls it in its exception text
};

void PrintTo(const Fault& f, std::ostream* os) { *os << "--" << f.site << "=" << f.mode; }

std::string expectedMessage(const Fault& f) {
  if (f.mode == "hang")
    return "plugin \"faulty\" failed in " + f.point +
           ": did not return within 50ms (pluginCallTimeout); the call was abandoned and the plugin quarantined";
  if (f.mode == "throw")
    return "plugin \"faulty\" failed in " + f.point + ": " + f.method + " threw an exception: faulty threw in " + f.site;
  return "plugin \"faulty\" failed in " + f.point + ": faulty failed in " + f.site;
}

class PluginFaults : public ::testing::TestWithParam<Fault> {
 protected:
  virtual std::string configText() const { return kConfig; }
  void SetUp() override {
    auto config = parseHostConfig(configText(), "faults.json");
    ASSERT_TRUE(config) << config.error();
    auto loaded = Registry::load(*config);
    ASSERT_TRUE(loaded) << loaded.error();
    registry = *loaded;
    plugins = std::make_unique<PluginJobPlugins>(registry, std::map<std::string, int32_t>{});
    sim = std::make_unique<SimCluster>(clock, SimBackendConfig{});
    controller = std::make_unique<Controller>(ControllerConfig{2, 2}, clock, *sim, *plugins);
    driver = std::make_unique<SimDriver>(clock, *sim, *controller);
    controller->setObserver([this](const HandledRequest& r) {
      std::lock_guard lock(mutex);
      if (!r.error.empty()) errors[r.request.jobName].push_back(r.error);
      if (r.request.jobName == "bad") trace.push_back(r.action + ">" + toString(r.phase) + (r.error.empty() ? "" : "!"));
    });
    controller->start();
  }
  void TearDown() override {
    if (controller) controller->stop();
  }

  /// Submits bystanders that do not use the faulty plugin, runs everything to the end and checks
  /// that each bystander completed: the host kept serving.
  void runWithBystanders() {
    for (int i = 0; i < 4; ++i) ASSERT_TRUE(controller->submitJob(makeJob("bystander-" + std::to_string(i), {}, false)));
    driver->runUntil(SimDriver::kForever);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(phaseOf("bystander-" + std::to_string(i)), JobPhase::Completed);
  }
  JobPhase phaseOf(const std::string& name) {
    auto job = controller->getJob("faults", name);
    return job ? job->status.state.phase : JobPhase::None;
  }
  std::vector<std::string> errorsOf(const std::string& name) {
    std::lock_guard lock(mutex);
    return errors[name];
  }

  std::shared_ptr<Registry> registry;
  VirtualClock clock{0};
  std::unique_ptr<PluginJobPlugins> plugins;
  std::unique_ptr<SimCluster> sim;
  std::unique_ptr<Controller> controller;
  std::unique_ptr<SimDriver> driver;
  std::mutex mutex;
  std::map<std::string, std::vector<std::string>> errors;
  std::vector<std::string> trace;
};

std::string name(const ::testing::TestParamInfo<Fault>& info) { return info.param.site + "_" + info.param.mode; }

std::vector<Fault> faultsAt(const std::vector<std::array<std::string, 3>>& sites) {
  std::vector<Fault> out;
  for (const auto& [site, point, method] : sites)
    for (const char* mode : {"throw", "error", "hang"}) out.push_back({site, mode, point, method});
  return out;
}

using PipelineFaults = PluginFaults;

TEST_P(PipelineFaults, RejectTheJobNamingPluginAndPointWhileOthersComplete) {
  const Fault& f = GetParam();
  Status st = controller->submitJob(makeJob("bad", {"--" + f.site + "=" + f.mode}));
  EXPECT_EQ(st.message(), expectedMessage(f));
  EXPECT_EQ(phaseOf("bad"), JobPhase::None);  // never entered the cache
  runWithBystanders();
}

INSTANTIATE_TEST_SUITE_P(Points, PipelineFaults,
                         ::testing::ValuesIn(faultsAt({{"ml", "MLPolicy", "EnforceMLPolicy"},
                                                       {"pg", "PodGroupPolicy", "EnforcePodGroupPolicy"},
                                                       {"net", "PodNetwork", "IdentifyPodNetwork"},
                                                       {"build", "ComponentBuild", "Build"}})),
                         name);

using HookFaults = PluginFaults;

// onJobAdd / onPodCreate failing: every sync fails with the reason until maxRequeue (2), then the
// job is terminated; a hang quarantines the plugin: later calls fail fast naming the first hang,
// and its OnJobDelete is skipped so the job can still be killed.
TEST_P(HookFaults, FailTheSyncNamingPluginAndHookThenTerminateWhileOthersComplete) {
  const Fault& f = GetParam();
  ASSERT_TRUE(controller->submitJob(makeJob("bad", {"--" + f.site + "=" + f.mode})));
  runWithBystanders();
  auto errors = errorsOf("bad");
  ASSERT_FALSE(errors.empty());
  EXPECT_EQ(errors[0], (f.site == "add" ? "PluginError: " : "") + expectedMessage(f));
  EXPECT_EQ(phaseOf("bad"), JobPhase::Terminated) << ::testing::PrintToString(errors);
}

INSTANTIATE_TEST_SUITE_P(Hooks, HookFaults,
                         ::testing::ValuesIn(faultsAt({{"add", "OnJobAdd", "OnJobAdd"},
                                                       {"pod", "OnPodCreate", "OnPodCreate"}})),
                         name);

// The deadline of the plugin's own config entry: the message names callTimeout, where to raise it.
class OwnTimeoutFaults : public PluginFaults {
 protected:
  std::string configText() const override {
    return R"({"plugins": [{"name": "faulty", "callTimeout": "50ms", "path": ")" + std::string(JOBHOST_FIXTURE_DIR) +
           R"(/libjobhost_faulty.so"}]})";
  }
};

TEST_F(OwnTimeoutFaults, AHangNamesThePluginsOwnCallTimeout) {
  ASSERT_TRUE(controller->submitJob(makeJob("bad", {"--add=hang"})));
  runWithBystanders();
  auto errors = errorsOf("bad");
  ASSERT_GE(errors.size(), 2u);
  EXPECT_EQ(errors[0], "PluginError: plugin \"faulty\" failed in OnJobAdd: did not return within 50ms (its "
                       "callTimeout); the call was abandoned and the plugin quarantined");
  EXPECT_EQ(errors[1], "PluginError: plugin \"faulty\" failed in OnJobAdd: quarantined: it did not return from "
                       "OnJobAdd within 50ms earlier (its callTimeout); restart the host to use it again");
}

using ValidationFaults = PluginFaults;

// Validation: the failure is a field error at spec.plugins.faulty naming the plugin and point; a
// job that does not use the plugin validates cleanly and the host keeps serving.
TEST_P(ValidationFaults, RejectTheJobAtItsPluginFieldWhileOthersComplete) {
  const Fault& f = GetParam();
  PluginValidation validate = validationPlugins(*registry);
  ValidationResult bad;
  validate(makeJob("bad", {"--" + f.site + "=" + f.mode}), nullptr, bad);
  ASSERT_EQ(bad.errors.size(), 1u);
  EXPECT_EQ(bad.errors[0].field, "spec.plugins.faulty");
  EXPECT_EQ(bad.errors[0].message, expectedMessage(f));
  ValidationResult good;
  validate(makeJob("good", {}, false), nullptr, good);
  EXPECT_TRUE(good.errors.empty());
  runWithBystanders();
}

INSTANTIATE_TEST_SUITE_P(Validation, ValidationFaults,
                         ::testing::ValuesIn(faultsAt({{"validate", "Validation", "Validate"}})), name);

using StatusFaults = PluginFaults;

// Status: a failed call's status is dropped (the error is logged naming the plugin) and the job
// keeps the status the controller computed, so it still completes. A hang quarantines the plugin:
// the job's next hook call is refused naming the hang, and the job is terminated.
TEST_P(StatusFaults, KeepTheControllersStatusAndCompleteTheJob) {
  const Fault& f = GetParam();
  ASSERT_TRUE(controller->submitJob(makeJob("bad", {"--" + f.site + "=" + f.mode})));
  runWithBystanders();
  if (f.mode == "hang") {
    ASSERT_FALSE(errorsOf("bad").empty());
    EXPECT_EQ(errorsOf("bad")[0], "PluginError: plugin \"faulty\" failed in OnJobAdd: quarantined: it did not return from "
                                  "Status within 50ms earlier (pluginCallTimeout); restart the host to use it again");
    EXPECT_EQ(phaseOf("bad"), JobPhase::Terminated);
    return;
  }
  EXPECT_TRUE(errorsOf("bad").empty());
  EXPECT_EQ(phaseOf("bad"), JobPhase::Completed) << ::testing::PrintToString(trace);
  EXPECT_EQ(controller->getJob("faults", "bad")->status.succeeded, controller->getJob("faults", "bystander-0")->status.succeeded);
}

INSTANTIATE_TEST_SUITE_P(Status, StatusFaults, ::testing::ValuesIn(faultsAt({{"status", "Status", "UpdateStatus"}})), name);

using UpdateFaults = PluginFaults;

// OnJobUpdate: a spec update's sync fails naming the plugin and hook until maxRequeue, then the
// job is terminated.
TEST_P(UpdateFaults, FailTheUpdateNamingPluginAndHookThenTerminate) {
  const Fault& f = GetParam();
  Job job = makeJob("bad", {"--" + f.site + "=" + f.mode});
  ASSERT_TRUE(controller->submitJob(job));
  job.spec.tasks[0].replicas = 3;
  ASSERT_TRUE(controller->updateJob(job));
  runWithBystanders();
  auto errors = errorsOf("bad");
  ASSERT_FALSE(errors.empty());
  EXPECT_EQ(errors[0], "PluginError: " + expectedMessage(f));
  EXPECT_EQ(phaseOf("bad"), JobPhase::Terminated) << ::testing::PrintToString(errors);
}

INSTANTIATE_TEST_SUITE_P(Hooks, UpdateFaults, ::testing::ValuesIn(faultsAt({{"update", "OnJobUpdate", "OnJobUpdate"}})), name);

using DeleteFaults = PluginFaults;

// OnJobDelete (called when the finished job's pods are killed): the job's phase is already
// Completed; the cleanup kill fails naming the plugin and hook and is retried until maxRequeue (a
// hang quarantines the plugin, whose OnJobDelete is then skipped). The job stays Completed.
TEST_P(DeleteFaults, FailTheKillNamingPluginAndHookYetReachAFinalPhase) {
  const Fault& f = GetParam();
  ASSERT_TRUE(controller->submitJob(makeJob("bad", {"--" + f.site + "=" + f.mode})));
  runWithBystanders();
  auto errors = errorsOf("bad");
  ASSERT_FALSE(errors.empty());
  EXPECT_EQ(errors[0], "PluginError: " + expectedMessage(f));
  EXPECT_EQ(phaseOf("bad"), JobPhase::Completed) << ::testing::PrintToString(errors) << ::testing::PrintToString(trace);
}

INSTANTIATE_TEST_SUITE_P(Hooks, DeleteFaults, ::testing::ValuesIn(faultsAt({{"delete", "OnJobDelete", "OnJobDelete"}})), name);

}  // namespace
}  // namespace jobhost
