// Test fixture: a Controller (4 workers) on a SimCluster under a VirtualClock, with a job
// builder, per-pod scripted behaviour and every handled request recorded for exact assertions.
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "host/cluster/sim/sim_cluster.h"
#include "host/cluster/sim/sim_driver.h"
#include "host/controller/controller.h"
#include "host/controller/no_plugin_job_plugins.h"
#include "host/controller/virtual_clock.h"

namespace jobhost::testing {

struct TaskDef {
  std::string name;
  int32_t replicas = 1;
  std::vector<LifecyclePolicy> policies = {};
  std::optional<int32_t> minAvailable = std::nullopt;
};

/// A defaulted job (as mutation leaves it): queue default, scheduler volcano, maxRetry 3,
/// task maxRetry 3, minAvailable = sum of task minAvailable or replicas.
Job makeJob(const std::string& name, const std::vector<TaskDef>& tasks);

LifecyclePolicy onEvent(const std::string& event, const std::string& action, std::optional<int64_t> timeoutMs = {});
LifecyclePolicy onExitCode(int32_t code, const std::string& action);

class ControllerTest : public ::testing::Test {
 protected:
  ~ControllerTest() override;

  /// Creates cluster and controller and starts the workers. Call once per test.
  void start(int workers = 4, int maxRequeue = 15);
  /// Pod behaviour per name and incarnation (1-based); others get `defaults`.
  void script(const std::string& pod, std::vector<PodBehaviour> incarnations) { behaviours_[pod] = std::move(incarnations); }

  void submit(const Job& job);
  void command(const std::string& action, const std::string& task = "", const std::string& pod = "",
               const std::string& partition = "");
  /// Runs the virtual clock to `ms` (absolute), settling every instant.
  void runTo(TimeMs ms) { driver_->runUntil(ms); }
  void settle() { driver_->settle(); }

  JobStatus status();
  JobPhase phase() { return status().state.phase; }
  /// Requests handled since the last call.
  std::vector<HandledRequest> take();
  /// The handled requests since the last take() whose event is `event`.
  std::vector<HandledRequest> takeEvent(const std::string& event);
  /// Submits the job, runs to `until` (the job must be Running then) and drops the requests so far.
  void run(const Job& job, TimeMs until = 1000);
  /// Issues a command and returns the one request it produced (a test failure if not exactly one).
  HandledRequest issue(const std::string& action, const std::string& task = "", const std::string& pod = "",
                       const std::string& partition = "");
  /// Delivers a PodGroupUpdated event of `pg` moved from phase `from` to `to`, then settles.
  void sendPodGroupPhase(PodGroup pg, const std::string& from, const std::string& to);

  PodBehaviour defaults;
  bool observe = true;  // false: start() sets no observer, so take() sees nothing
  std::function<void(const HandledRequest&)> alsoObserve;  // called with each report, after take()'s copy
  std::string ns = "default";
  std::string jobName = "job";
  std::vector<std::string> forwardingQueues;  // ControllerConfig::forwardingQueues
  VirtualClock clock{0};
  NoPluginJobPlugins noPlugins;
  JobPlugins* plugins = &noPlugins;
  SimBackendConfig cluster;
  std::unique_ptr<SimCluster> sim;
  std::unique_ptr<Controller> controller;
  std::unique_ptr<SimDriver> driver_;

 private:
  std::map<std::string, std::vector<PodBehaviour>> behaviours_;
  std::mutex mutex_;
  std::vector<HandledRequest> handled_;
};

/// PodBehaviour shorthands.
PodBehaviour runs(int64_t runForMs, int32_t exitCode = 0, int64_t startAfterMs = 1000);
PodBehaviour runsForever(int64_t startAfterMs = 1000);

}  // namespace jobhost::testing
