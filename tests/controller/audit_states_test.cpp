// Audit of spec §4 (state table, Running completion) and §5.1/§5.2 (killPods, syncJob): the rules
// no other test would catch if broken, including killPods under failing patches and deletes.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "controller_fixture.h"

namespace jobhost::testing {
namespace {

class AuditStates : public ControllerTest {
 protected:
  void run(const Job& job, TimeMs until = 1000) {
    submit(job);
    runTo(until);
    ASSERT_EQ(phase(), JobPhase::Running);
    take();
  }
};

// §4 Pending: MinAvailable <= Running + Succeeded + Failed — finished pods count too.
TEST_F(AuditStates, PendingCountsSucceededAndFailedPodsTowardsRunning) {
  defaults = runsForever(1000);
  script("job-worker-0", {runs(500, 0, 1000)});  // Succeeded at 1.5 s
  script("job-worker-1", {runs(500, 1, 1000)});  // Failed at 1.5 s
  script("job-worker-2", {runsForever(3000)});
  start();
  submit(makeJob("job", {{"worker", 3}}));
  runTo(2999);
  EXPECT_EQ(phase(), JobPhase::Pending);  // 0 + 1 + 1 < 3
  runTo(3000);
  JobStatus s = status();
  EXPECT_EQ(s.state.phase, JobPhase::Running);  // 1 + 1 + 1 >= 3
  EXPECT_EQ(s.running, 1);
  EXPECT_EQ(s.succeeded, 1);
  EXPECT_EQ(s.failed, 1);
}

// §4 Running, rule 4: Pending > replicas - MinAvailable falls back to Pending by a plain sync (no
// kill: RetryCount and Version unchanged).
TEST_F(AuditStates, RunningFallsBackToPendingWhenARecreatedPodIsPending) {
  defaults = runsForever(1000);
  script("job-worker-0", {runsForever(1000), runsForever(50'000)});
  start();
  run(makeJob("job", {{"worker", 2}}));
  sim->evictPod(ns, "job-worker-0");  // no policy: PodEvicted -> SyncJob recreates it, Pending
  settle();
  auto evicted = takeEvent("PodEvicted");
  ASSERT_EQ(evicted.size(), 1u);
  EXPECT_EQ(evicted[0].action, "SyncJob");
  EXPECT_EQ(evicted[0].phase, JobPhase::Pending);  // 1 > 2 - 2
  EXPECT_EQ(evicted[0].pending, 1);
  EXPECT_EQ(evicted[0].running, 1);
  EXPECT_EQ(evicted[0].retryCount, 0);
  EXPECT_EQ(evicted[0].version, 0);
  runTo(60'000);
  EXPECT_EQ(phase(), JobPhase::Running);
}

// §4 Running, rule 3a decides on its own: Succeeded 4 >= MinAvailable 3 would complete, but the
// worker task has 1 < its minAvailable 2 succeeded.
TEST_F(AuditStates, TaskBelowItsMinAvailableFailsTheJobThoughSucceededReachesMinAvailable) {
  defaults = runs(1000, 0, 1000);
  script("job-worker-1", {runs(1000, 1)});
  start();
  Job job = makeJob("job", {{"ps", 3, {}, 1}, {"worker", 2, {}, 2}});
  ASSERT_EQ(job.spec.minAvailable, 3);  // == Σ task minAvailable: 3a applies
  run(job);
  runTo(2000);
  auto lines = take();
  auto failed = std::find_if(lines.begin(), lines.end(), [](const auto& r) { return r.phase == JobPhase::Failed; });
  ASSERT_NE(failed, lines.end());
  EXPECT_EQ(failed->action, "SyncJob");
  EXPECT_EQ(failed->succeeded, 4);
  EXPECT_EQ(failed->failed, 1);
  EXPECT_EQ(phase(), JobPhase::Failed);
}

// §4 finished states: KillJob(Soft, nil) — the phase change's own request kills the pods still
// alive after an early minSuccess completion; Succeeded pods stay, nothing else in the status moves.
TEST_F(AuditStates, CompletedKillsThePodsStillRunningAndKeepsTheSucceededOnes) {
  defaults = runsForever(1000);
  script("job-worker-0", {runs(1000, 0)});
  start();
  Job job = makeJob("job", {{"worker", 3}});
  job.spec.minSuccess = 1;
  run(job);
  runTo(2000);
  auto lines = take();
  auto done = std::find_if(lines.begin(), lines.end(), [](const auto& r) { return r.phase == JobPhase::Completed; });
  ASSERT_NE(done, lines.end());
  EXPECT_EQ(done->version, 0);  // the sync that completed
  EXPECT_EQ(done->succeeded, 1);
  EXPECT_EQ(done->running, 2);
  ASSERT_NE(done + 1, lines.end());
  EXPECT_EQ(done[1].phase, JobPhase::Completed);  // the next request: a full kill in Completed
  EXPECT_EQ(done[1].version, 1);
  EXPECT_EQ(done[1].retryCount, 0);
  EXPECT_EQ(done[1].terminating, 2);
  EXPECT_EQ(done[1].running, 0);
  EXPECT_EQ(done[1].succeeded, 0);  // the retained pod is not counted by a kill
  JobStatus s = status();
  EXPECT_EQ(s.state.phase, JobPhase::Completed);
  EXPECT_EQ(s.version, static_cast<int32_t>(lines.end() - done - 1));  // every later request kills again
  EXPECT_EQ(s.state.lastTransitionTime, std::optional<TimeMs>(2000));
  EXPECT_EQ(s.conditions.back(), (JobCondition{JobPhase::Completed, 2000}));
  EXPECT_EQ(sim->podNames(), std::vector<std::string>{"default/job-worker-0"});
}

// §5.1 targeted kill of a pod that is not there: nothing killed, yet the status is written
// (Restarting, RetryCount++) — only an unknown partition returns without a status update.
TEST_F(AuditStates, RestartPodOfAMissingPodStillRestarts) {
  defaults = runsForever(1000);
  start();
  run(makeJob("job", {{"worker", 2}}));
  HandledRequest r = issue("RestartPod", "worker", "job-worker-7");
  EXPECT_EQ(r.error, "");
  EXPECT_EQ(r.phase, JobPhase::Restarting);
  EXPECT_EQ(r.retryCount, 1);
  EXPECT_EQ(r.version, 0);
  EXPECT_EQ(r.terminating, 0);
  EXPECT_EQ(r.running, 0);
  EXPECT_EQ(sim->getPod(ns, "job-worker-0")->uid(), "uid-job-worker-0-1");
  EXPECT_EQ(sim->getPod(ns, "job-worker-1")->uid(), "uid-job-worker-1-1");
  EXPECT_EQ(phase(), JobPhase::Running);  // Restarting -> Pending (2 - 0 >= 2) -> Running
  EXPECT_EQ(status().retryCount, 1);
}

// §5.1 out-of-sync marking before delete (issue #4814): the deletions of a targeted kill's pods
// are OutOfSync, not PodEvicted, so a PodEvicted policy does not fire on them.
TEST_F(AuditStates, KilledPodsAreMarkedSoTheirDeletionIsNotAnEviction) {
  defaults = runsForever(1000);
  start();
  Job job = makeJob("job", {{"worker", 2}});
  job.spec.maxRetry = 10;
  job.spec.policies = {onEvent("PodEvicted", "RestartJob")};
  run(job);
  issue("RestartTask", "worker");
  runTo(5000);
  EXPECT_TRUE(takeEvent("PodEvicted").empty());
  JobStatus s = status();
  EXPECT_EQ(s.state.phase, JobPhase::Running);
  EXPECT_EQ(s.retryCount, 1);
  EXPECT_EQ(s.version, 0);
}

// ---- killPods with a backend whose patches or deletes fail for chosen pods ----

class FlakyBackend final : public ClusterBackend {
 public:
  explicit FlakyBackend(SimCluster& sim) : sim_(sim) {}
  std::set<std::string> failAnnotate, failDelete;  // pod names; set before the request runs

  void setListener(ClusterListener* l) override { sim_.setListener(l); }
  ClusterStatus createPod(Pod pod, PodState* created) override { return sim_.createPod(std::move(pod), created); }
  ClusterStatus deletePod(const std::string& ns, const std::string& name) override {
    if (failDelete.count(name)) return ClusterStatus::fail(ClusterErrc::Failed, "delete " + name + " refused");
    return sim_.deletePod(ns, name);
  }
  ClusterStatus annotatePod(const std::string& ns, const std::string& name, const std::string& key,
                            const std::string& value) override {
    if (failAnnotate.count(name)) return ClusterStatus::fail(ClusterErrc::Failed, "patch " + name + " refused");
    return sim_.annotatePod(ns, name, key, value);
  }
  ClusterStatus createPodGroup(const PodGroup& pg) override { return sim_.createPodGroup(pg); }
  ClusterStatus updatePodGroupSpec(const PodGroup& pg) override { return sim_.updatePodGroupSpec(pg); }
  ClusterStatus deletePodGroup(const std::string& ns, const std::string& name) override {
    return sim_.deletePodGroup(ns, name);
  }
  std::optional<PodGroup> getPodGroup(const std::string& ns, const std::string& name) override {
    return sim_.getPodGroup(ns, name);
  }
  std::optional<std::string> podGroupPhase(const std::string& ns, const std::string& name) override {
    return sim_.podGroupPhase(ns, name);
  }
  ClusterStatus createPvc(const std::string& ns, const std::string& name, const std::string& ownerUid) override {
    return sim_.createPvc(ns, name, ownerUid);
  }
  bool pvcExists(const std::string& ns, const std::string& name) override { return sim_.pvcExists(ns, name); }
  ClusterStatus applyObjects(const std::string& ns, const Components& objects) override {
    return sim_.applyObjects(ns, objects);
  }
  ClusterStatus removeObject(const std::string& ns, ObjectKind kind, const std::string& name) override {
    return sim_.removeObject(ns, kind, name);
  }
  std::optional<ConfigMap> getConfigMap(const std::string& ns, const std::string& name) override {
    return sim_.getConfigMap(ns, name);
  }
  std::optional<Secret> getSecret(const std::string& ns, const std::string& name) override {
    return sim_.getSecret(ns, name);
  }
  bool hasConfigMapData(const std::string& ns, const std::string& name,
                        const std::map<std::string, std::string>& data) override {
    return sim_.hasConfigMapData(ns, name, data);
  }
  bool objectExists(const std::string& ns, ObjectKind kind, const std::string& name) override {
    return sim_.objectExists(ns, kind, name);
  }
  void deleteOwnedBy(const std::string& ns, const std::string& ownerUid) override { sim_.deleteOwnedBy(ns, ownerUid); }
  void echoJobChange(const std::string& ns, const std::string& name) override { sim_.echoJobChange(ns, name); }

 private:
  SimCluster& sim_;
};

/// The fixture's cluster and controller, with the controller talking to the cluster through a
/// FlakyBackend. Every pod runs from 1 s on.
class FlakyKills : public ControllerTest {
 protected:
  ~FlakyKills() override {  // the controller goes before the backend it talks to
    if (controller) controller->stop();
    controller.reset();
  }
  void SetUp() override {
    sim = std::make_unique<SimCluster>(clock, cluster);
    sim->setBehaviour([](const Pod&, int) { return runsForever(1000); });
    flaky = std::make_unique<FlakyBackend>(*sim);
    ControllerConfig config;
    config.workers = 4;
    controller = std::make_unique<Controller>(config, clock, *flaky, noPlugins);
    controller->setObserver([this](const HandledRequest& r) {
      std::lock_guard lock(mutex);
      handled.push_back(r);
    });
    driver_ = std::make_unique<SimDriver>(clock, *sim, *controller);
    controller->start();
    submit(makeJob("job", {{"worker", 2}}));
    runTo(1000);
    ASSERT_EQ(phase(), JobPhase::Running);
  }
  HandledRequest restartJob() {
    {
      std::lock_guard lock(mutex);
      handled.clear();
    }
    command("RestartJob");
    std::lock_guard lock(mutex);
    for (const auto& r : handled)
      if (r.request.event == "CommandIssued") return r;
    ADD_FAILURE() << "no CommandIssued request";
    return {};
  }
  bool marked(const std::string& pod) {
    auto p = sim->getPod(ns, pod);
    return p && p->object->metadata.annotations.count(std::string(keys::OutOfSyncMarker)) > 0;
  }

  std::unique_ptr<FlakyBackend> flaky;
  std::mutex mutex;
  std::vector<HandledRequest> handled;
};

TEST_F(FlakyKills, FailedPatchLeavesThePodAliveAndFailsTheKillWithoutAStatusWrite) {
  flaky->failAnnotate = {"job-worker-1"};
  HandledRequest r = restartJob();
  EXPECT_EQ(r.error.rfind("failed to kill 1 pods of 2", 0), 0u) << r.error;
  EXPECT_TRUE(r.requeued);
  EXPECT_EQ(r.phase, JobPhase::Running);
  EXPECT_EQ(r.retryCount, 0);
  EXPECT_EQ(r.version, 0);
  EXPECT_EQ(sim->getPod(ns, "job-worker-1")->uid(), "uid-job-worker-1-1");  // not deleted
  EXPECT_FALSE(marked("job-worker-1"));
  EXPECT_NE(sim->getPod(ns, "job-worker-0")->uid(), "uid-job-worker-0-1");  // marked and deleted
  // The requeued RestartJob succeeds once the patch does.
  flaky->failAnnotate.clear();
  runTo(2000);
  JobStatus s = status();
  EXPECT_EQ(s.retryCount, 1);
  EXPECT_EQ(s.version, 1);
}

TEST_F(FlakyKills, FailedDeleteLeavesTheMarkedPodAndFailsTheKillWithoutAStatusWrite) {
  flaky->failDelete = {"job-worker-1"};
  HandledRequest r = restartJob();
  EXPECT_EQ(r.error.rfind("failed to kill 1 pods of 2", 0), 0u) << r.error;
  EXPECT_TRUE(r.requeued);
  EXPECT_EQ(r.phase, JobPhase::Running);
  EXPECT_EQ(r.retryCount, 0);
  EXPECT_EQ(r.version, 0);
  EXPECT_EQ(sim->getPod(ns, "job-worker-1")->uid(), "uid-job-worker-1-1");
  EXPECT_TRUE(marked("job-worker-1"));  // patched before the delete was tried
  flaky->failDelete.clear();
  runTo(2000);
  JobStatus s = status();
  EXPECT_EQ(s.retryCount, 1);
  EXPECT_EQ(s.version, 1);
}

}  // namespace
}  // namespace jobhost::testing
