// Delayed-action cancellation, the #5507 fix, last-retry retain, RestartPartition by policy,
// dependsOn any/all, stale events of a deleted job, maxRequeue exhaustion and TTL.
#include <gtest/gtest.h>

#include "controller_fixture.h"

namespace jobhost::testing {
namespace {

std::vector<HandledRequest> fired(const std::vector<HandledRequest>& lines) {
  std::vector<HandledRequest> out;
  for (const auto& r : lines)
    if (r.delayedFire) out.push_back(r);
  return out;
}

class Lifecycle : public ControllerTest {};

TEST_F(Lifecycle, PendingTimeoutCancelledWhenThePodStartsRunning) {
  defaults = runsForever(2000);
  start();
  Job job = makeJob("job", {{"worker", 1, {onEvent("PodPending", "RestartPod", 5000)}}});
  submit(job);
  auto pending = takeEvent("PodPending");
  ASSERT_EQ(pending.size(), 1u);
  EXPECT_EQ(pending[0].delayMs, 5000);
  EXPECT_EQ(pending[0].action, "RestartPod");
  EXPECT_EQ(controller->delayedActionCount(ns, "job"), 1u);
  runTo(2000);
  EXPECT_EQ(controller->delayedActionCount(ns, "job"), 0u);
  runTo(6000);
  EXPECT_TRUE(fired(take()).empty());
  EXPECT_EQ(sim->getPod(ns, "job-worker-0")->uid(), "uid-job-worker-0-1");
  EXPECT_EQ(status().retryCount, 0);
}

TEST_F(Lifecycle, PendingTimeoutOfARecreatedPodIsNotCancelledByTheNewPod) {
  defaults = runsForever(3000);
  start();
  Job job = makeJob("job", {{"worker", 1, {onEvent("PodPending", "RestartPod", 5000)}}});
  submit(job);
  runTo(1000);
  // The controller kills uid 1 (its deletion is an OutOfSync event, which cancels nothing) and
  // recreates the pod as uid 2, whose PodPending keeps the existing RestartPod entry.
  command("RestartTask", "worker");
  runTo(4500);
  ASSERT_EQ(sim->getPod(ns, "job-worker-0")->uid(), "uid-job-worker-0-2");
  EXPECT_EQ(phase(), JobPhase::Running);
  EXPECT_EQ(controller->delayedActionCount(ns, "job"), 1u);  // uid 2's PodRunning did not cancel uid 1's
  take();
  runTo(5000);
  auto f = fired(take());
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].at, 5000);
  EXPECT_EQ(f[0].action, "RestartPod");
  EXPECT_EQ(f[0].request.podUid, "uid-job-worker-0-1");
  EXPECT_EQ(f[0].phase, JobPhase::Restarting);
  EXPECT_EQ(f[0].retryCount, 2);
}

TEST_F(Lifecycle, FailedTimeoutNotCancelledByARecreatedPodRunning_Issue5507) {
  defaults = runsForever(1000);
  start();
  script("job-worker-0", {runs(1000, 1, 1000), runsForever(1000)});
  Job job = makeJob("job", {{"worker", 2}});
  job.spec.policies = {onEvent("PodFailed", "RestartJob", 5000)};
  submit(job);
  runTo(2000);  // worker-0 failed at 2s: RestartJob delayed to 7s
  EXPECT_EQ(controller->delayedActionCount(ns, "job"), 1u);
  sim->evictPod(ns, "job-worker-0");  // the failed pod goes; syncJob recreates it, it runs at 3s
  runTo(3000);
  EXPECT_EQ(sim->getPod(ns, "job-worker-0")->uid(), "uid-job-worker-0-2");
  EXPECT_EQ(controller->delayedActionCount(ns, "job"), 1u);  // Volcano would have cancelled it here
  take();
  runTo(7000);
  auto f = fired(take());
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].at, 7000);
  EXPECT_EQ(f[0].action, "RestartJob");
  EXPECT_EQ(f[0].retryCount, 1);
  EXPECT_EQ(f[0].version, 1);
}

TEST_F(Lifecycle, FailedTimeoutCancelledWhenTheSamePodRunsAgain) {
  defaults = runsForever(1000);
  start();
  Job job = makeJob("job", {{"worker", 1}});
  job.spec.policies = {onEvent("PodFailed", "RestartJob", 5000)};
  submit(job);
  runTo(1000);
  auto podState = sim->getPod(ns, "job-worker-0");
  ASSERT_TRUE(podState);
  // Inject: the same pod (same UID) reported Failed, then Running again.
  auto failedPod = *podState;
  failedPod.status.phase = PodPhase::Failed;
  failedPod.resourceVersion = 1000;
  ClusterEvent failedEv{ClusterEvent::Type::PodUpdated, failedPod, PodPhase::Running, 999, nullptr, "", "", ""};
  controller->listener().onClusterEvents(std::span(&failedEv, 1));
  settle();
  EXPECT_EQ(controller->delayedActionCount(ns, "job"), 1u);
  auto runningPod = failedPod;
  runningPod.status.phase = PodPhase::Running;
  runningPod.resourceVersion = 1001;
  ClusterEvent runningEv{ClusterEvent::Type::PodUpdated, runningPod, PodPhase::Failed, 1000, nullptr, "", "", ""};
  controller->listener().onClusterEvents(std::span(&runningEv, 1));
  settle();
  EXPECT_EQ(controller->delayedActionCount(ns, "job"), 0u);
  runTo(8000);
  EXPECT_TRUE(fired(take()).empty());
  EXPECT_EQ(status().retryCount, 0);
}

TEST_F(Lifecycle, LastRetryRetainsSucceededAndFailedPods) {
  defaults = runsForever(1000);
  start();
  script("job-worker-0", {runs(1000), runs(1000)});
  Job job = makeJob("job", {{"worker", 2}});
  job.spec.maxRetry = 2;
  submit(job);
  runTo(2000);  // worker-0 Succeeded, worker-1 Running
  command("RestartJob");  // retryCount 0 < maxRetry-1: everything is killed
  EXPECT_EQ(sim->getPod(ns, "job-worker-0")->uid(), "uid-job-worker-0-2");
  runTo(4000);  // the new worker-0 succeeded again
  ASSERT_EQ(sim->getPod(ns, "job-worker-0")->status.phase, PodPhase::Succeeded);
  take();
  command("RestartJob");  // retryCount 1 >= maxRetry-1: last retry, Soft retain
  auto lines = takeEvent("CommandIssued");
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].terminating, 1);
  EXPECT_EQ(lines[0].retryCount, 2);
  EXPECT_EQ(lines[0].version, 2);
  EXPECT_EQ(sim->getPod(ns, "job-worker-0")->uid(), "uid-job-worker-0-2");  // retained
  EXPECT_EQ(phase(), JobPhase::Failed);  // retryCount 2 >= maxRetry 2
}

TEST_F(Lifecycle, RestartPartitionByPolicyKillsThePartitionOfTheFailedPod) {
  defaults = runsForever(1000);
  start();
  script("job-worker-3", {runs(1000, 2), runsForever(1000)});
  Job job = makeJob("job", {{"worker", 4, {onEvent("PodFailed", "RestartPartition")}}});
  job.spec.tasks[0].partitionPolicy = PartitionPolicy{2, 2, std::nullopt, 0};
  submit(job);
  runTo(2000);
  auto lines = takeEvent("PodFailed");
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].action, "RestartPartition");
  EXPECT_EQ(lines[0].request.partitionId, "1");
  EXPECT_EQ(lines[0].terminating, 2);
  EXPECT_EQ(lines[0].retryCount, 1);
  EXPECT_EQ(sim->getPod(ns, "job-worker-1")->uid(), "uid-job-worker-1-1");
  EXPECT_EQ(sim->getPod(ns, "job-worker-2")->uid(), "uid-job-worker-2-2");
  runTo(3000);
  EXPECT_EQ(phase(), JobPhase::Running);
  EXPECT_EQ(status().running, 4);
}

Job dependsJob(const std::string& iteration) {
  Job job = makeJob("job", {{"a", 1, {}, 1}, {"b", 1, {}, 1}, {"c", 1}});
  job.spec.minAvailable = 1;
  job.spec.tasks[2].dependsOn = DependsOn{{"a", "b"}, iteration};
  return job;
}

TEST_F(Lifecycle, DependsOnAllWaitsForEveryDependency) {
  defaults = runsForever(1000);
  start();
  script("job-b-0", {runsForever(10'000)});
  submit(dependsJob("all"));
  runTo(5000);
  EXPECT_FALSE(sim->getPod(ns, "job-c-0"));
  runTo(10'000);
  EXPECT_TRUE(sim->getPod(ns, "job-c-0"));
}

TEST_F(Lifecycle, DependsOnAnyStartsAfterOneDependency) {
  defaults = runsForever(1000);
  start();
  script("job-b-0", {runsForever(10'000)});
  submit(dependsJob("any"));
  EXPECT_FALSE(sim->getPod(ns, "job-c-0"));
  runTo(1000);
  EXPECT_TRUE(sim->getPod(ns, "job-c-0"));
}

TEST_F(Lifecycle, DependsOnWaitsForReadiness) {
  defaults = runsForever(1000);
  defaults.readyAfterMs = 2000;
  start();
  submit(dependsJob("any"));
  runTo(2999);
  EXPECT_FALSE(sim->getPod(ns, "job-c-0"));
  runTo(3000);
  EXPECT_TRUE(sim->getPod(ns, "job-c-0"));
}

// §5.2 steps 7-8: every missing pod is built and passed to OnPodCreate; a task waiting on
// dependsOn only skips the creation, so an OnPodCreate error on its pods still fails the sync.
class PodCreateFailsForTaskC : public NoPluginJobPlugins {
 public:
  Expected<std::vector<Pod>> makePods(const Job& job, const std::vector<PodSlot>& slots, bool jobForwarding) override {
    built.push_back(slots.size());
    for (const auto& slot : slots)
      if (job.spec.tasks[slot.taskIndex].name == "c" && failForC)
        return Expected<std::vector<Pod>>::failure("env: cannot decorate the pod");
    return NoPluginJobPlugins::makePods(job, slots, jobForwarding);
  }
  std::vector<size_t> built;
  bool failForC = true;
};

TEST_F(Lifecycle, DependsOnBlockedPodsAreBuiltAndTheirOnPodCreateErrorFailsTheSync) {
  defaults = runsForever(1000);
  PodCreateFailsForTaskC failing;
  plugins = &failing;
  start();
  submit(dependsJob("all"));
  runTo(500);  // the PodGroup is Inqueue: a, b and the blocked c are built together
  ASSERT_FALSE(failing.built.empty());
  EXPECT_EQ(failing.built.front(), 3u);
  EXPECT_FALSE(sim->getPod(ns, "job-a-0"));  // the error aborted the sync before any create
  bool requeuedWithError = false;
  for (const auto& r : take())
    requeuedWithError = requeuedWithError || (r.requeued && r.error.find("env: cannot decorate the pod") != std::string::npos);
  EXPECT_TRUE(requeuedWithError);
  failing.failForC = false;
  runTo(5000);
  EXPECT_TRUE(sim->getPod(ns, "job-a-0"));
  EXPECT_TRUE(sim->getPod(ns, "job-b-0"));
  EXPECT_TRUE(sim->getPod(ns, "job-c-0"));  // a and b Running and Ready since 2 s
}

TEST_F(Lifecycle, StalePodEventsOfADeletedJobWithTheSameNameAreOnlySynced) {
  defaults = runsForever(1000);
  start();
  Job job = makeJob("job", {{"worker", 2}});
  job.spec.policies = {onEvent("PodEvicted", "RestartJob")};
  submit(job);
  runTo(1000);
  std::string oldUid = controller->getJob(ns, "job")->metadata.uid;
  ASSERT_TRUE(controller->deleteJob(ns, "job").isOk());
  ASSERT_TRUE(controller->submitJob(job).isOk());  // same name, new UID; old pods' deletions pending
  std::string newUid = controller->getJob(ns, "job")->metadata.uid;
  ASSERT_NE(oldUid, newUid);
  take();
  settle();
  auto evicted = takeEvent("PodEvicted");
  ASSERT_EQ(evicted.size(), 2u);
  for (const auto& r : evicted) {
    EXPECT_EQ(r.request.jobUid, oldUid);
    EXPECT_EQ(r.action, "SyncJob");
    EXPECT_EQ(r.retryCount, 0);
  }
  runTo(2000);
  EXPECT_EQ(phase(), JobPhase::Running);
  EXPECT_EQ(status().retryCount, 0);
}

class FailingAdd : public NoPluginJobPlugins {
 public:
  Status onJobAdd(Job&, ResourceClient&) override { return Status::error("svc: cannot create the ConfigMap"); }
};

TEST_F(Lifecycle, MaxRequeueExhaustionTerminatesTheJob) {
  FailingAdd failing;
  plugins = &failing;
  start(4, 3);
  submit(makeJob("job", {{"worker", 2}}));
  int requeued = 0, limit = 0;
  for (TimeMs t : {5, 10, 20, 25}) {
    runTo(t);
    for (const auto& r : take()) {
      requeued += r.requeued ? 1 : 0;
      if (r.retryLimitReached) {
        ++limit;
        EXPECT_EQ(r.phase, JobPhase::Terminating);
        EXPECT_NE(r.error.find("PluginError: svc: cannot create the ConfigMap"), std::string::npos);
      }
    }
  }
  EXPECT_EQ(requeued, 3);
  EXPECT_EQ(limit, 1);
  runTo(1000);
  EXPECT_EQ(phase(), JobPhase::Terminated);
  EXPECT_EQ(sim->podCount(), 0u);
}

TEST_F(Lifecycle, HookErrorIsRetriedWithBackoffUntilItSucceeds) {
  class FlakyAdd : public NoPluginJobPlugins {
   public:
    Status onJobAdd(Job&, ResourceClient&) override {
      return ++calls <= 2 ? Status::error("not yet") : Status::ok();
    }
    std::atomic<int> calls{0};
  } flaky;
  plugins = &flaky;
  defaults = runsForever(1000);
  start();
  submit(makeJob("job", {{"worker", 2}}));
  runTo(2000);
  EXPECT_EQ(phase(), JobPhase::Running);
}

TEST_F(Lifecycle, TtlDeletesTheFinishedJob) {
  defaults = runs(10'000, 0, 1000);
  start();
  Job job = makeJob("job", {{"worker", 1}});
  job.spec.ttlSecondsAfterFinished = 10;
  submit(job);
  runTo(11'000);
  ASSERT_EQ(phase(), JobPhase::Completed);
  runTo(20'999);
  EXPECT_TRUE(controller->getJob(ns, "job"));
  runTo(21'000);
  EXPECT_FALSE(controller->getJob(ns, "job"));
  EXPECT_EQ(sim->podCount(), 0u);
}

TEST_F(Lifecycle, UnknownPodGroupEventTriggersPolicy) {
  defaults = runsForever(1000);
  cluster.nodes = 2;
  cluster.cpu = Quantity::fromMilli(1000);
  start();
  Job job = makeJob("job", {{"worker", 2}});
  job.spec.tasks[0].template_.spec.containers[0].resources.requests["cpu"] = Quantity::fromMilli(1000);
  job.spec.policies = {onEvent("Unknown", "RestartJob")};
  submit(job);
  runTo(1000);
  take();
  sim->loseNode(0);  // one member left running, its replacement cannot be placed
  settle();
  auto unknown = takeEvent("Unknown");
  ASSERT_EQ(unknown.size(), 1u);
  EXPECT_EQ(unknown[0].action, "RestartJob");
  EXPECT_EQ(unknown[0].retryCount, 1);
}

}  // namespace
}  // namespace jobhost::testing
