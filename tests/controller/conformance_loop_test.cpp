// Spec §2 and §3.2-3.3 on the running controller: the retry limit (maxRequeue, TerminateJob, no
// Forget), cleanupDelayActions only after non-internal actions, an overwritten delayed action
// whose timer still fires (and whose cleanup then cancels the newer one), delayed actions
// executed in the phase current at firing time, and CleanPodDelayActionsIfNeed; the count of
// processed requests, the same outcome with no observer, and an observer that reads the job.
// Virtual clock.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "controller_fixture.h"

namespace jobhost::testing {
namespace {

std::vector<HandledRequest> firedOf(const std::vector<HandledRequest>& lines) {
  std::vector<HandledRequest> out;
  for (const auto& r : lines)
    if (r.delayedFire) out.push_back(r);
  return out;
}

std::vector<HandledRequest> withEvent(const std::vector<HandledRequest>& lines, const std::string& event) {
  std::vector<HandledRequest> out;
  for (const auto& r : lines)
    if (r.request.event == event) out.push_back(r);
  return out;
}

constexpr uint64_t kRestartPodJobRequests = 18;  // runRestartPodJob's requests, the fired action not among them

class Loop : public ControllerTest {
 protected:
  /// Job "job" of 2 workers whose worker-0 is still Pending when its PodPending timeout fires at
  /// 5 s (RestartPod); every pod then runs 2 s and exits 0. Runs it to 20 s.
  void runRestartPodJob() {
    defaults = runs(2000, 0, 1000);
    script("job-worker-0", {runs(2000, 0, 8000)});
    start();
    submit(makeJob("job", {{"worker", 2, {onEvent("PodPending", "RestartPod", 5000)}}}));
    runTo(20'000);
  }

  /// Job "job" of 2 workers: PodFailed → RestartJob after 3 s, PodEvicted → `onEvicted` after 10 s.
  /// worker-0 fails at 2 s (RestartJob due at 5 s) and is evicted at 3 s: `onEvicted`, due at 13 s,
  /// overwrites RestartJob in the pod's slot. Returns the requests handled until then.
  std::vector<HandledRequest> overwriteRestartJobAt3s(const std::string& onEvicted) {
    defaults = runsForever(1000);
    script("job-worker-0", {runs(1000, 1, 1000)});
    start();
    Job job = makeJob("job", {{"worker", 2}});
    job.spec.policies = {onEvent("PodFailed", "RestartJob", 3000), onEvent("PodEvicted", onEvicted, 10'000)};
    submit(job);
    runTo(3000);
    sim->evictPod(ns, "job-worker-0");
    settle();
    return take();
  }
};

// handleJobError requeues while NumRequeues < maxRequeue; at the limit it runs TerminateJob and
// drops the request WITHOUT queue.Forget (only a success forgets). So once a request used up its
// retries, the next failure of the identical request goes straight to TerminateJob.
TEST_F(Loop, RetryLimitDoesNotForgetTheRequest) {
  class Hooks : public NoPluginJobPlugins {
   public:
    Status onJobAdd(Job&, ResourceClient&) override { return Status::error("add fails"); }
    Status onJobDelete(Job&, ResourceClient&) override {
      return ++deletes == 1 ? Status::ok() : Status::error("delete fails");
    }
    std::atomic<int> deletes{0};
  } hooks;
  plugins = &hooks;
  start(4, 2);
  submit(makeJob("job", {{"worker", 1}}));
  runTo(10'000);
  auto lines = take();
  int requeued = 0, limits = 0;
  bool afterLimit = false;
  for (const auto& r : lines) {
    ASSERT_EQ(r.request.event, "OutOfSync");  // one request: the job's (add and echoes)
    if (r.requeued) {
      ++requeued;
      EXPECT_FALSE(afterLimit) << "requeued at " << r.at << " after the retry limit was reached";
    }
    if (r.retryLimitReached) {
      ++limits;
      afterLimit = true;
    }
  }
  EXPECT_EQ(requeued, 2);  // maxRequeue, in total
  // Limits: the 5 ms retry (TerminateJob: OnJobDelete #1 ok), then its echo, failing in
  // Terminating (#2) and terminating again (#3, failing too). The echo's own 10 ms backoff at 0
  // was dropped by the delaying queue (the 5 ms one was already waiting).
  EXPECT_EQ(limits, 2);
  EXPECT_EQ(phase(), JobPhase::Terminating);
  EXPECT_EQ(hooks.deletes.load(), 3);
}

// A success forgets: the same request can fail maxRequeue times again afterwards.
TEST_F(Loop, SuccessForgetsTheRequeues) {
  class Flaky : public NoPluginJobPlugins {
   public:
    Status onJobAdd(Job&, ResourceClient&) override {
      int n = ++calls;
      return n == 1 || n == 2 || n == 4 || n == 5 ? Status::error("flaky") : Status::ok();
    }
    std::atomic<int> calls{0};
  } flaky;
  plugins = &flaky;
  defaults = runsForever(100'000);
  start(4, 2);
  submit(makeJob("job", {{"worker", 1}}));
  runTo(1000);
  int requeued = 0, limits = 0;
  for (const auto& r : take()) {
    requeued += r.requeued;
    limits += r.retryLimitReached;
  }
  EXPECT_EQ(limits, 0);
  EXPECT_EQ(requeued, 4);
  EXPECT_EQ(phase(), JobPhase::Pending);
}

// Only non-internal actions run cleanupDelayActions after success: SyncJob and EnqueueJob leave
// a waiting job-type action alone, ResumeJob (a JobAction) cancels it.
TEST_F(Loop, OnlyNonInternalActionsCleanUpDelayedActions) {
  defaults = runsForever(1000);
  script("job-worker-0", {runs(1000, 1, 1000)});
  start();
  Job job = makeJob("job", {{"worker", 2}});
  job.spec.policies = {onEvent("PodFailed", "RestartJob", 10'000)};
  submit(job);
  runTo(2000);  // worker-0 failed: RestartJob waits until 12 s
  ASSERT_EQ(controller->delayedActionCount(ns, "job"), 1u);
  sim->evictPod(ns, "job-worker-1");  // PodEvicted -> SyncJob (no policy): internal
  settle();
  EXPECT_EQ(controller->delayedActionCount(ns, "job"), 1u);
  command("EnqueueJob");  // explicit, but internal
  EXPECT_EQ(controller->delayedActionCount(ns, "job"), 1u);
  command("ResumeJob");  // a JobAction: cancels every job-type delayed action
  EXPECT_EQ(controller->delayedActionCount(ns, "job"), 0u);
  take();
  runTo(20'000);
  EXPECT_TRUE(firedOf(take()).empty());
  EXPECT_EQ(status().retryCount, 0);
}

// §3.2: a different action for the same pod overwrites the map slot without cancelling the old
// timer. The old action still fires, and its cleanupDelayActions (same ActionType: Job) then
// cancels the newer entry, which never runs.
TEST_F(Loop, OverwrittenDelayedActionFiresAndItsCleanupCancelsTheNewerOneOfTheSameType) {
  const auto handled = overwriteRestartJobAt3s("AbortJob");
  const auto failed = withEvent(handled, "PodFailed");
  const auto evicted = withEvent(handled, "PodEvicted");
  ASSERT_EQ(failed.size(), 1u);
  EXPECT_EQ(failed[0].delayMs, 3000);
  ASSERT_EQ(evicted.size(), 1u);
  EXPECT_EQ(evicted[0].action, "AbortJob");
  EXPECT_EQ(evicted[0].delayMs, 10'000);
  EXPECT_EQ(controller->delayedActionCount(ns, "job"), 1u);  // one slot per pod
  runTo(5000);
  auto f = firedOf(take());
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].action, "RestartJob");  // the overwritten one still fires
  EXPECT_EQ(f[0].request.event, "PodFailed");
  EXPECT_EQ(f[0].phase, JobPhase::Restarting);
  EXPECT_EQ(f[0].retryCount, 1);
  EXPECT_EQ(controller->delayedActionCount(ns, "job"), 0u);  // its cleanup removed AbortJob
  runTo(20'000);
  EXPECT_TRUE(firedOf(take()).empty());
  EXPECT_EQ(phase(), JobPhase::Running);
}

// The same, with the newer action of another type: both fire.
TEST_F(Loop, OverwrittenDelayedActionOfAnotherTypeLeavesTheNewerOneToFire) {
  overwriteRestartJobAt3s("RestartPod");
  runTo(5000);
  auto first = firedOf(take());
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0].action, "RestartJob");
  EXPECT_EQ(first[0].retryCount, 1);
  EXPECT_EQ(controller->delayedActionCount(ns, "job"), 1u);  // RestartPod (Pod type) survives
  runTo(13'000);
  auto second = firedOf(take());
  ASSERT_EQ(second.size(), 1u);
  EXPECT_EQ(second[0].action, "RestartPod");
  EXPECT_EQ(second[0].at, 13'000);
  EXPECT_EQ(second[0].request.event, "PodEvicted");
  // RestartPod in Running: KillTarget, retry++. (The recreated worker-0's PodRunning at 6 s did not
  // cancel it: our #5507 UID fix; Volcano would have cancelled it there.)
  EXPECT_EQ(second[0].phase, JobPhase::Restarting);
  EXPECT_EQ(second[0].retryCount, 2);
  EXPECT_EQ(controller->delayedActionCount(ns, "job"), 0u);
}

// Our deviation: deleting a job cancels its delayed actions, an overwritten one too (Volcano's
// timer keeps running and acts on a job created again under the same name).
TEST_F(Loop, OverwrittenDelayedActionOfADeletedJobDoesNotActOnAJobOfTheSameName) {
  overwriteRestartJobAt3s("AbortJob");
  ASSERT_TRUE(controller->deleteJob(ns, "job").isOk());
  ASSERT_TRUE(controller->submitJob(makeJob("job", {{"worker", 2}})).isOk());
  runTo(20'000);  // RestartJob's timer (5 s) and AbortJob's (13 s) pass
  EXPECT_TRUE(firedOf(take()).empty());
  EXPECT_EQ(phase(), JobPhase::Running);
  EXPECT_EQ(status().retryCount, 0);
  EXPECT_EQ(status().version, 0);
}

// A delayed action runs against the state of the phase the job is in when it fires.
TEST_F(Loop, DelayedActionRunsInThePhaseCurrentAtFiringTime) {
  defaults = runsForever(1000);
  script("job-worker-0", {runs(1000, 1, 1000)});
  start();
  Job job = makeJob("job", {{"worker", 2, {onEvent("PodFailed", "RestartTask", 5000)}}});
  submit(job);
  runTo(2000);  // RestartTask due at 7 s
  command("AbortJob");  // a JobAction: does not clean a TaskAction
  ASSERT_EQ(phase(), JobPhase::Aborted);
  ASSERT_EQ(controller->delayedActionCount(ns, "job"), 1u);
  JobStatus before = status();
  take();
  runTo(7000);
  auto f = firedOf(take());
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].action, "RestartTask");
  EXPECT_EQ(f[0].phase, JobPhase::Aborted);  // Aborted: KillJob(Soft, nil), no status change
  EXPECT_EQ(f[0].retryCount, 0);
  EXPECT_EQ(f[0].version, before.version + 1);
  EXPECT_EQ(status().state.lastTransitionTime, before.state.lastTransitionTime);
}

// A fired delayed action that fails is requeued as its original request, and Forget runs right
// after (as in Volcano's timer goroutine): the request re-enters applyPolicies and is delayed again.
TEST_F(Loop, FailedDelayedActionRequeuesItsRequestWhichIsDelayedAgain) {
  class DeleteFailsOnce : public NoPluginJobPlugins {
   public:
    Status onJobDelete(Job&, ResourceClient&) override {
      return ++deletes == 1 ? Status::error("not now") : Status::ok();
    }
    std::atomic<int> deletes{0};
  } hooks;
  plugins = &hooks;
  defaults = runsForever(1000);
  script("job-worker-0", {runs(1000, 1, 1000)});
  start();
  Job job = makeJob("job", {{"worker", 2}});
  job.spec.policies = {onEvent("PodFailed", "RestartJob", 1000)};
  submit(job);
  runTo(3000);  // failed at 2 s, fires at 3 s: OnJobDelete fails
  auto f = firedOf(take());
  ASSERT_EQ(f.size(), 1u);
  EXPECT_TRUE(f[0].requeued);
  EXPECT_EQ(f[0].phase, JobPhase::Running);
  runTo(3005);  // the requeued PodFailed is delayed again (the old entry was cleaned up)
  auto again = takeEvent("PodFailed");
  ASSERT_EQ(again.size(), 1u);
  EXPECT_EQ(again[0].at, 3005);
  EXPECT_EQ(again[0].delayMs, 1000);
  runTo(4005);
  auto second = firedOf(take());
  ASSERT_EQ(second.size(), 1u);
  EXPECT_TRUE(second[0].error.empty());
  EXPECT_EQ(second[0].phase, JobPhase::Restarting);
  EXPECT_EQ(second[0].retryCount, 1);
}

// §3.3: a PodPending action is cancelled by any non-PodPending pod event of the same pod UID.
TEST_F(Loop, PendingTimeoutCancelledWhenTheSamePodIsEvicted) {
  defaults = runsForever(100'000);
  start();
  Job job = makeJob("job", {{"worker", 2, {onEvent("PodPending", "RestartPod", 5000)}}});
  submit(job);
  ASSERT_EQ(controller->delayedActionCount(ns, "job"), 2u);
  const std::string firstUid = sim->getPod(ns, "job-worker-0")->uid();
  runTo(2000);
  sim->evictPod(ns, "job-worker-0");
  settle();
  // worker-0's entry went with its eviction; the recreated worker-0 (new UID) waits until 7 s.
  EXPECT_EQ(controller->delayedActionCount(ns, "job"), 2u);
  take();
  runTo(5000);
  auto f = firedOf(take());
  ASSERT_EQ(f.size(), 1u);  // worker-1's only
  EXPECT_EQ(f[0].request.podName, "job-worker-1");
  runTo(7000);
  auto g = firedOf(take());
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g[0].request.podName, "job-worker-0");
  EXPECT_NE(g[0].request.podUid, firstUid);
}

TEST_F(Loop, RequestsProcessedCountsEachRequestButNoFiredDelayedAction) {
  runRestartPodJob();
  ASSERT_EQ(phase(), JobPhase::Completed);
  const auto all = take();
  EXPECT_EQ(firedOf(all).size(), 1u);  // worker-0 was still Pending at 5 s: RestartPod ran
  EXPECT_EQ(all.size(), kRestartPodJobRequests + 1);
  EXPECT_EQ(controller->requestsProcessed(), kRestartPodJobRequests);
  EXPECT_EQ(status().retryCount, 1);
}

// Without an observer the controller copies no request into its reports: the job takes the same
// path, with as many requests and the same final status, as the observed run above.
TEST_F(Loop, WithoutAnObserverTheJobEndsTheSame) {
  observe = false;
  runRestartPodJob();
  EXPECT_TRUE(take().empty());
  EXPECT_EQ(phase(), JobPhase::Completed);
  EXPECT_EQ(status().retryCount, 1);
  EXPECT_EQ(controller->requestsProcessed(), kRestartPodJobRequests);
}

// The observer is called after the job's lock is released, so it may read the job (a caller that
// holds its own lock while reading the job would otherwise deadlock with it). A read that does not
// come back within 10 s counts as a failure instead of hanging the suite.
TEST_F(Loop, TheObserverMayReadTheJob) {
  std::mutex mutex;  // the observer runs on worker threads
  std::vector<JobPhase> seen, reported;
  bool blocked = false;
  alsoObserve = [&](const HandledRequest& r) {
    std::lock_guard lock(mutex);
    if (blocked) return;
    auto done = std::make_shared<std::promise<std::optional<Job>>>();
    auto read = done->get_future();
    std::thread([this, done] { done->set_value(controller->getJob(ns, "job")); }).detach();
    if (read.wait_for(std::chrono::seconds(10)) != std::future_status::ready) {
      ADD_FAILURE() << "getJob from the observer blocked: the job's lock is still held";
      blocked = true;
      return;
    }
    const auto job = read.get();
    ASSERT_TRUE(job.has_value());
    seen.push_back(job->status.state.phase);
    reported.push_back(r.phase);
  };
  runRestartPodJob();
  ASSERT_EQ(phase(), JobPhase::Completed);
  std::lock_guard lock(mutex);
  EXPECT_EQ(seen.size(), kRestartPodJobRequests + 1);
  EXPECT_EQ(seen, reported);  // one job, one worker: nothing changes it between the report and the read
}

}  // namespace
}  // namespace jobhost::testing
