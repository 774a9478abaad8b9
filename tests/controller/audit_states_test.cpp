// Audit of spec §4 (state table, Running completion) and §5.1/§5.2 (killPods, syncJob): the rules
// no other test would catch if broken, including killPods under failing patches and deletes.
#include <gtest/gtest.h>

#include <algorithm>

#include "controller_fixture.h"

namespace jobhost::testing {
namespace {

class AuditStates : public ControllerTest {};

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

// ---- killPods when the sim refuses a pod's patch or delete ----

// §5.2 step 8: a failed creation fails the sync with Volcano's "failed to create %d pods of %d",
// where the second number counts the job's tasks (len(podToCreate)); the retry creates the pod.
TEST_F(AuditStates, FailedPodCreationFailsTheSyncCountingTasksAndTheRetryCreatesThePod) {
  defaults = runsForever(1000);
  start();
  sim->failPodCreates(1);
  submit(makeJob("job", {{"ps", 1}, {"worker", 3}}));
  settle();
  std::vector<HandledRequest> failed;
  for (auto& r : take())
    if (!r.error.empty()) failed.push_back(r);
  ASSERT_EQ(failed.size(), 1u);
  EXPECT_EQ(failed[0].error, "failed to create 1 pods of 2: pods \"job-ps-0\": simulated server error");
  EXPECT_TRUE(failed[0].requeued);
  runTo(1000);
  JobStatus s = status();
  EXPECT_EQ(s.state.phase, JobPhase::Running);
  EXPECT_EQ(s.running, 4);
}

class FlakyKills : public ControllerTest {
 protected:
  void SetUp() override {
    defaults = runsForever(1000);
    start();
    submit(makeJob("job", {{"worker", 2}}));
    runTo(1000);
    ASSERT_EQ(phase(), JobPhase::Running);
    take();
  }
  bool marked(const std::string& pod) {
    auto p = sim->getPod(ns, pod);
    return p && p->object->metadata.annotations.count(std::string(keys::OutOfSyncMarker)) > 0;
  }
  /// RestartJob fails with "failed to kill 1 pods of 2", is requeued and writes no status; once
  /// the sim accepts the writes again, the retry restarts the job.
  void expectFailedKillThenRetry(bool patches, bool deletes) {
    ASSERT_TRUE(sim->refusePodWrites(ns, "job-worker-1", patches, deletes));
    HandledRequest r = issue("RestartJob");
    EXPECT_EQ(r.error.rfind("failed to kill 1 pods of 2", 0), 0u) << r.error;
    EXPECT_TRUE(r.requeued);
    EXPECT_EQ(r.phase, JobPhase::Running);
    EXPECT_EQ(r.retryCount, 0);
    EXPECT_EQ(r.version, 0);
    EXPECT_EQ(sim->getPod(ns, "job-worker-1")->uid(), "uid-job-worker-1-1");     // not deleted
    EXPECT_NE(sim->getPod(ns, "job-worker-0")->uid(), "uid-job-worker-0-1");     // marked and deleted
    EXPECT_EQ(marked("job-worker-1"), !patches);  // a refused delete comes after the patch
    ASSERT_TRUE(sim->refusePodWrites(ns, "job-worker-1", false, false));
    runTo(2000);
    JobStatus s = status();
    EXPECT_EQ(s.retryCount, 1);
    EXPECT_EQ(s.version, 1);
  }
};

TEST_F(FlakyKills, FailedPatchLeavesThePodAliveAndFailsTheKillWithoutAStatusWrite) {
  expectFailedKillThenRetry(true, false);
}

TEST_F(FlakyKills, FailedDeleteLeavesTheMarkedPodAndFailsTheKillWithoutAStatusWrite) {
  expectFailedKillThenRetry(false, true);
}

}  // namespace
}  // namespace jobhost::testing
