// Spec §4-§6 rows not covered elsewhere: RestartPartition in Pending, restartingUpdateStatus on
// status.MinAvailable, scale-to-zero, the task-minAvailable check's precondition, the primitives'
// side effects (OnJobDelete on every kill, PodGroup kept on targeted kills, LastTransitionTime,
// conditions and RunningDuration), OnJobAdd on every Pending sync, dependsOn readiness and TTL.
#include <gtest/gtest.h>

#include <atomic>
#include <mutex>

#include "controller_fixture.h"

namespace jobhost::testing {
namespace {

/// Counts hook calls and records every status the controller writes (Status plugin point).
class RecordingHooks : public NoPluginJobPlugins {
 public:
  Status onJobAdd(Job&, ResourceClient&) override { return ++adds, Status::ok(); }
  Status onJobUpdate(Job&, ResourceClient&) override { return ++updates, Status::ok(); }
  Status onJobDelete(Job&, ResourceClient&) override { return ++deletes, Status::ok(); }
  void updateStatus(const Job&, JobStatus& status) override {
    std::lock_guard lock(mutex);
    written.push_back(status);
  }
  std::vector<JobStatus> takeWritten() {
    std::lock_guard lock(mutex);
    std::vector<JobStatus> out;
    out.swap(written);
    return out;
  }
  std::atomic<int> adds{0}, updates{0}, deletes{0};
  std::mutex mutex;
  std::vector<JobStatus> written;
};

class States : public ControllerTest {
 protected:
  std::string podGroupName() { return jobName + "-" + controller->getJob(ns, jobName)->metadata.uid; }
};

// ---- §4 ----

TEST_F(States, PendingRestartPartitionKillsThePartitionAndRestarts) {
  defaults = runsForever(100'000);  // bound, never started: the job stays Pending
  start();
  Job job = makeJob("job", {{"worker", 4}});
  job.spec.tasks[0].partitionPolicy = PartitionPolicy{2, 2, std::nullopt, 0};
  submit(job);
  ASSERT_EQ(phase(), JobPhase::Pending);
  take();
  HandledRequest r = issue("RestartPartition", "worker", "", "0");
  EXPECT_EQ(r.phase, JobPhase::Restarting);
  EXPECT_EQ(r.retryCount, 1);
  EXPECT_EQ(r.version, 0);
  EXPECT_EQ(r.terminating, 2);
  EXPECT_EQ(r.pending, 0);
  EXPECT_EQ(sim->getPod(ns, "job-worker-0")->uid(), "uid-job-worker-0-2");
  EXPECT_EQ(sim->getPod(ns, "job-worker-1")->uid(), "uid-job-worker-1-2");
  EXPECT_EQ(sim->getPod(ns, "job-worker-2")->uid(), "uid-job-worker-2-1");
  EXPECT_EQ(phase(), JobPhase::Pending);
}

// restartingUpdateStatus: RetryCount >= MaxRetry -> Failed; else total - status.Terminating >=
// status.MinAvailable (the status field, not the spec) -> Pending; else unchanged. A job submitted
// with a status shows it directly: its first sync runs in Restarting with the PodGroup still "".
Job restartingJob(int32_t statusMinAvailable, int32_t terminating, int32_t retryCount) {
  Job job = makeJob("job", {{"worker", 3}});  // spec.minAvailable 3
  job.status.state.phase = JobPhase::Restarting;
  job.status.minAvailable = statusMinAvailable;
  job.status.terminating = terminating;
  job.status.retryCount = retryCount;
  return job;
}

TEST_F(States, RestartingComparesAgainstStatusMinAvailable) {
  defaults = runsForever(1000);
  start();
  ASSERT_TRUE(controller->submitJob(restartingJob(1, 1, 0)).isOk());
  controller->waitForIdle();  // the add's request only: PodGroup not scheduled yet
  settle();
  auto lines = take();
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines[0].action, "SyncJob");
  EXPECT_EQ(lines[0].phase, JobPhase::Pending);  // 3 - 1 >= 1 (status); 2 >= 3 (spec) would not
}

TEST_F(States, RestartingStaysWhileTooManyPodsTerminate) {
  defaults = runsForever(1000);
  start();
  ASSERT_TRUE(controller->submitJob(restartingJob(3, 1, 0)).isOk());
  settle();
  auto lines = take();
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines[0].phase, JobPhase::Restarting);  // 3 - 1 < 3, no write
  EXPECT_EQ(lines[0].terminating, 1);
}

TEST_F(States, RestartingFailsOnceRetryCountReachesMaxRetry) {
  defaults = runsForever(1000);
  start();
  ASSERT_TRUE(controller->submitJob(restartingJob(1, 0, 3)).isOk());
  settle();
  auto lines = take();
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines[0].phase, JobPhase::Failed);  // 3 >= maxRetry 3 is checked first
}

TEST_F(States, RunningScaledToZeroKeepsItsPhase) {
  defaults = runsForever(1000);
  start();
  run(makeJob("job", {{"worker", 2}}));
  Job zero = *controller->getJob(ns, "job");
  zero.spec.tasks[0].replicas = 0;
  zero.spec.minAvailable = 0;
  ASSERT_TRUE(controller->updateJob(zero).isOk());
  settle();
  auto lines = take();
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines[0].terminating, 2);
  EXPECT_EQ(phase(), JobPhase::Running);  // 0 replicas: the completion logic returns unchanged
  EXPECT_EQ(sim->podCount(), 0u);
}

// 3a applies only when spec.MinAvailable >= Σ(task.minAvailable ?? replicas).
TEST_F(States, TaskMinAvailableIsNotCheckedWhenJobMinAvailableIsBelowTheTasksSum) {
  defaults = runs(2000, 0, 1000);
  script("job-worker-0", {runs(2000, 1)});
  start();
  Job job = makeJob("job", {{"ps", 1}, {"worker", 2, {}, 2}});
  job.spec.minAvailable = 2;  // < 1 + 2
  run(job);
  runTo(3000);
  EXPECT_EQ(phase(), JobPhase::Completed);  // worker has 1 < 2 succeeded, but 2 >= minAvailable 2
}

// minSuccess completes the job early; then the finished state's KillJob(Soft, nil) — run by the
// next request — kills the pods still alive, keeps the Succeeded one and moves nothing else.
TEST_F(States, MinSuccessIsCheckedBeforeEverythingElse) {
  defaults = runsForever(1000);
  script("job-worker-0", {runs(1000, 0)});
  start();
  Job job = makeJob("job", {{"worker", 3}});
  job.spec.minSuccess = 1;
  run(job);
  runTo(2000);
  auto lines = take();
  ASSERT_GE(lines.size(), 2u);
  EXPECT_EQ(lines[0].phase, JobPhase::Completed);  // 1 succeeded, 2 still running
  EXPECT_EQ(lines[0].version, 0);
  EXPECT_EQ(lines[0].succeeded, 1);
  EXPECT_EQ(lines[0].running, 2);
  EXPECT_EQ(lines[1].phase, JobPhase::Completed);  // a full kill in Completed
  EXPECT_EQ(lines[1].version, 1);
  EXPECT_EQ(lines[1].retryCount, 0);
  EXPECT_EQ(lines[1].terminating, 2);
  EXPECT_EQ(lines[1].running, 0);
  EXPECT_EQ(lines[1].succeeded, 0);  // the retained pod is not counted by a kill
  JobStatus s = status();
  EXPECT_EQ(s.version, static_cast<int32_t>(lines.size() - 1));  // every later request kills again
  EXPECT_EQ(s.state.lastTransitionTime, std::optional<TimeMs>(2000));
  EXPECT_EQ(s.conditions.back(), (JobCondition{JobPhase::Completed, 2000}));
  EXPECT_EQ(sim->podNames(), std::vector<std::string>{"default/job-worker-0"});
}

// ---- §5 ----

TEST_F(States, OnJobDeleteRunsOnEveryKillAndThePodGroupGoesOnlyWithAFullKill) {
  RecordingHooks hooks;
  plugins = &hooks;
  defaults = runsForever(1000);
  start();
  Job job = makeJob("job", {{"ps", 1}, {"worker", 2}});
  job.spec.maxRetry = 10;
  run(job);
  const std::string pg = podGroupName();
  ASSERT_EQ(sim->getPodGroup(ns, pg)->metadata.creationTimestamp, std::optional<TimeMs>(0));
  EXPECT_EQ(hooks.deletes.load(), 0);  // syncs never call it

  runTo(2000);
  issue("RestartTask", "worker");
  EXPECT_EQ(hooks.deletes.load(), 1);
  EXPECT_EQ(sim->getPodGroup(ns, pg)->metadata.creationTimestamp, std::optional<TimeMs>(0));  // kept

  issue("RestartPod", "", "job-ps-0");
  EXPECT_EQ(hooks.deletes.load(), 2);
  EXPECT_EQ(sim->getPodGroup(ns, pg)->metadata.creationTimestamp, std::optional<TimeMs>(0));

  runTo(3000);
  issue("RestartJob");  // full kill: deleted, then recreated by the next sync
  EXPECT_EQ(hooks.deletes.load(), 3);
  EXPECT_EQ(sim->getPodGroup(ns, pg)->metadata.creationTimestamp, std::optional<TimeMs>(3000));
}

TEST_F(States, FinishedStatesKillOnEveryRequestWithOnJobDelete) {
  RecordingHooks hooks;
  plugins = &hooks;
  defaults = runs(1000, 0, 1000);
  start();
  run(makeJob("job", {{"worker", 1}}));
  runTo(2000);
  ASSERT_EQ(phase(), JobPhase::Completed);
  int before = hooks.deletes.load();
  int32_t version = status().version;
  issue("EnqueueJob");
  EXPECT_EQ(hooks.deletes.load(), before + 1);
  EXPECT_EQ(status().version, version + 1);
  EXPECT_EQ(phase(), JobPhase::Completed);
}

TEST_F(States, SyncRestampsTransitionTimeAndConditionOnAnyCounterChange) {
  defaults = runsForever(1000);
  script("job-worker-0", {runs(2000, 0)});
  start();
  run(makeJob("job", {{"worker", 2}}));
  ASSERT_EQ(status().state.lastTransitionTime, std::optional<TimeMs>(1000));
  runTo(3000);  // worker-0 succeeded: counters change, phase stays Running
  JobStatus s = status();
  EXPECT_EQ(s.state.phase, JobPhase::Running);
  EXPECT_EQ(s.state.lastTransitionTime, std::optional<TimeMs>(3000));
  EXPECT_EQ(s.conditions, (std::vector<JobCondition>{{JobPhase::Pending, 0}, {JobPhase::Running, 3000}}));
  // A sync that changes nothing writes nothing.
  runTo(4000);
  issue("EnqueueJob");
  EXPECT_EQ(status().state.lastTransitionTime, std::optional<TimeMs>(3000));
  EXPECT_EQ(status().conditions, s.conditions);
}

TEST_F(States, KillSetsRunningDurationTheUncountedSyncKeepsItTheCountingSyncDropsIt) {
  RecordingHooks hooks;
  plugins = &hooks;
  defaults = runsForever(1000);
  start();
  run(makeJob("job", {{"worker", 2}}));
  command("AbortJob");
  ASSERT_EQ(phase(), JobPhase::Aborted);
  runTo(5000);
  take();
  hooks.takeWritten();
  issue("ResumeJob");
  auto written = hooks.takeWritten();
  ASSERT_GE(written.size(), 3u);
  // 1. the kill (Aborted + ResumeJob): RunningDuration = LastTransitionTime - creation.
  EXPECT_EQ(written[0].state.phase, JobPhase::Restarting);
  EXPECT_EQ(written[0].state.lastTransitionTime, std::optional<TimeMs>(5000));
  EXPECT_EQ(written[0].runningDurationMs, std::optional<int64_t>(5000));
  EXPECT_EQ(written[0].retryCount, 1);
  // 2. Restarting -> Pending while the recreated PodGroup is not scheduled: the existing status,
  //    RunningDuration included, with the new phase.
  EXPECT_EQ(written[1].state.phase, JobPhase::Pending);
  EXPECT_EQ(written[1].runningDurationMs, std::optional<int64_t>(5000));
  EXPECT_EQ(written[1].pending, 0);
  // 3. the first counting sync: RunningDuration dropped, counters recounted.
  EXPECT_EQ(written[2].state.phase, JobPhase::Pending);
  EXPECT_EQ(written[2].runningDurationMs, std::nullopt);
  EXPECT_EQ(written[2].pending, 2);
}

TEST_F(States, TargetedKillRebuildsTheStatusFromTheKilledPodsOnly) {
  RecordingHooks hooks;
  plugins = &hooks;
  defaults = runsForever(1000);
  start();
  run(makeJob("job", {{"ps", 1}, {"worker", 2}}));
  hooks.takeWritten();
  issue("RestartTask", "worker");
  auto written = hooks.takeWritten();
  ASSERT_FALSE(written.empty());
  EXPECT_EQ(written[0].state.phase, JobPhase::Restarting);
  EXPECT_EQ(written[0].terminating, 2);
  EXPECT_EQ(written[0].running, 0);  // ps-0 still runs but is not counted
  EXPECT_TRUE(written[0].taskStatusCount.empty());
  EXPECT_EQ(written[0].minAvailable, 3);  // kept from the status
}

TEST_F(States, OnJobAddRunsOnEverySyncWhilePendingAndOnJobUpdateAfterwards) {
  RecordingHooks hooks;
  plugins = &hooks;
  defaults = runsForever(1000);
  start();
  submit(makeJob("job", {{"worker", 2}}));
  int pendingSyncs = static_cast<int>(take().size());
  EXPECT_EQ(hooks.adds.load(), pendingSyncs);
  EXPECT_EQ(hooks.updates.load(), 0);
  runTo(1000);  // the first PodRunning sync still starts in Pending (initiateJob), then Running
  int adds = hooks.adds.load();
  int running = 0;
  for (const auto& r : take()) running += r.phase == JobPhase::Running ? 1 : 0;
  EXPECT_EQ(adds, pendingSyncs + 1);
  EXPECT_EQ(hooks.updates.load(), running - 1);
}

// ---- §6.4 dependsOn, §6.7 TTL ----

TEST_F(States, DependencyWithoutMinAvailableIsAlwaysReady) {
  defaults = runsForever(100'000);  // nothing ever runs
  start();
  Job job = makeJob("job", {{"a", 1}, {"b", 1}});
  job.spec.tasks[1].dependsOn = DependsOn{{"a"}, ""};
  submit(job);
  EXPECT_TRUE(sim->getPod(ns, "job-b-0"));
}

TEST_F(States, SucceededDependencyPodsCountAsReady) {
  defaults = runsForever(1000);
  PodBehaviour neverReady = runs(1000, 0, 1000);
  neverReady.readyAfterMs = 60'000;  // Running but not Ready until it succeeds at 2 s
  script("job-a-0", {neverReady});
  script("job-a-1", {runsForever(100'000)});
  start();
  Job job = makeJob("job", {{"a", 2, {}, 1}, {"b", 1}});
  job.spec.minAvailable = 1;
  job.spec.tasks[1].dependsOn = DependsOn{{"a"}, ""};
  submit(job);
  runTo(1999);
  EXPECT_FALSE(sim->getPod(ns, "job-b-0"));  // a-0 Running but not Ready
  runTo(2000);
  EXPECT_TRUE(sim->getPod(ns, "job-b-0"));  // a-0 Succeeded: 1 >= minAvailable 1
}

TEST_F(States, SingleDependencyWithIterationAnyNeedsIt) {
  defaults = runsForever(1000);
  script("job-a-0", {runsForever(5000)});
  start();
  Job job = makeJob("job", {{"a", 1, {}, 1}, {"b", 1}});
  job.spec.minAvailable = 1;
  job.spec.tasks[1].dependsOn = DependsOn{{"a"}, "any"};
  submit(job);
  runTo(4999);
  EXPECT_FALSE(sim->getPod(ns, "job-b-0"));
  runTo(5000);
  EXPECT_TRUE(sim->getPod(ns, "job-b-0"));
}

TEST_F(States, TtlZeroDeletesTheJobWhenItFinishes) {
  defaults = runs(1000, 1, 1000);
  start();
  Job job = makeJob("job", {{"worker", 1}});
  job.spec.ttlSecondsAfterFinished = 0;
  submit(job);
  runTo(1999);
  EXPECT_TRUE(controller->getJob(ns, "job"));
  runTo(2000);  // Failed at 2 s, deleted at once
  EXPECT_FALSE(controller->getJob(ns, "job"));
}

TEST_F(States, TtlDoesNotApplyToAbortedJobs) {
  defaults = runsForever(1000);
  start();
  Job job = makeJob("job", {{"worker", 1}});
  job.spec.ttlSecondsAfterFinished = 1;
  run(job);
  command("AbortJob");
  ASSERT_EQ(phase(), JobPhase::Aborted);
  runTo(60'000);
  EXPECT_TRUE(controller->getJob(ns, "job"));
}

// The garbage collector reads lastTransitionTime from the API server, in whole seconds: a job
// Completed at 4.5 s with a TTL of 5 s is deleted at 9 s.
TEST_F(States, TtlCountsFromTheLastTransitionTimeInWholeSeconds) {
  defaults = runs(3500, 0);
  start();
  Job job = makeJob("job", {{"worker", 1}});
  job.spec.ttlSecondsAfterFinished = 5;
  submit(job);
  runTo(4500);
  ASSERT_EQ(phase(), JobPhase::Completed);
  ASSERT_EQ(status().state.lastTransitionTime, std::optional<TimeMs>(4500));
  runTo(8999);
  EXPECT_TRUE(controller->getJob(ns, "job"));
  runTo(9000);
  EXPECT_FALSE(controller->getJob(ns, "job"));
}

// §5.2 step 2 and §6.1: a job of a queue with extendClusters is annotated job-forwarding=true
// before initiateJob (so its PodGroup copies it) and its pods carry the annotation and the label.
TEST_F(States, AJobOfAQueueWithExtendClustersIsMarkedForForwarding) {
  defaults = runsForever(1000);
  forwardingQueues = {"fwd"};
  start();
  Job job = makeJob("job", {{"worker", 2}});
  job.spec.queue = "fwd";
  Job other = makeJob("other", {{"worker", 1}});
  run(job);
  submit(other);
  runTo(2000);
  const std::string key(keys::JobForwarding);
  auto cached = controller->getJob(ns, "job");
  ASSERT_TRUE(cached);
  EXPECT_EQ(cached->metadata.annotations.at(key), "true");
  auto pg = sim->getPodGroup(ns, "job-" + cached->metadata.uid);
  ASSERT_TRUE(pg);
  EXPECT_EQ(pg->metadata.annotations.at(key), "true");
  for (const char* name : {"job-worker-0", "job-worker-1"}) {
    auto pod = sim->getPod(ns, name);
    ASSERT_TRUE(pod) << name;
    EXPECT_EQ(pod->object->metadata.annotations.at(key), "true") << name;
    EXPECT_EQ(pod->object->metadata.labels.at(key), "true") << name;
  }
  EXPECT_FALSE(controller->getJob(ns, "other")->metadata.annotations.count(key));
  auto otherPod = sim->getPod(ns, "other-worker-0");
  ASSERT_TRUE(otherPod);
  EXPECT_FALSE(otherPod->object->metadata.annotations.count(key));
  EXPECT_FALSE(otherPod->object->metadata.labels.count(key));
}

TEST_F(States, TtlCountsFromTheLastTransitionTime) {
  defaults = runsForever(1000);
  script("job-worker-0", {runs(1000, 0)});
  script("job-worker-1", {runs(3000, 0)});
  start();
  Job job = makeJob("job", {{"worker", 2}});
  job.spec.ttlSecondsAfterFinished = 5;
  run(job);
  runTo(4000);  // Completed at 4 s (the last pod)
  ASSERT_EQ(phase(), JobPhase::Completed);
  ASSERT_EQ(status().state.lastTransitionTime, std::optional<TimeMs>(4000));
  runTo(8999);
  EXPECT_TRUE(controller->getJob(ns, "job"));
  runTo(9000);
  EXPECT_FALSE(controller->getJob(ns, "job"));
}

}  // namespace
}  // namespace jobhost::testing
