// Audit of spec §1-§3 (requests, processing loop, applyPolicies, delayed actions): FNV-1 routing,
// client-go's delaying-queue backoff and the maxRequeue limit, and job updates. Virtual clock only.
#include <gtest/gtest.h>

#include <atomic>

#include "controller_fixture.h"
#include "host/controller/delayed_actions.h"
#include "host/controller/virtual_clock.h"
#include "host/controller/worker_pool.h"

namespace jobhost::testing {
namespace {

Request named(const std::string& job) {
  Request r;
  r.namespace_ = "ns";
  r.jobName = job;
  r.event = "OutOfSync";
  return r;
}

// Go: fnv.New32() over "ns/name", modulo the worker count (getWorkerQueue).
TEST(AuditRouting, WorkerIsGoFnv1OfTheJobKeyModuloWorkers) {
  EXPECT_EQ(fnv1Hash32("default/job"), 0x1c9aa4d4u);
  EXPECT_EQ(jobKeyHash("default", "job"), 0x1c9aa4d4u);
  EXPECT_EQ(jobKeyHash("team-a", "train"), 0x6a4aa7a3u);
  Request r = named("a");
  EXPECT_EQ(jobKeyHash(r), 0x0dad982cu);
  VirtualClock clock;
  WorkerPool pool(3, clock);
  EXPECT_EQ(pool.workerOf("ns/a"), 1u);
  EXPECT_EQ(pool.workerOf("default/job"), 0u);
}

TEST(AuditRouting, ControllerDefaultsAreThreeWorkersAndMaxRequeue15) {
  ControllerConfig config;
  EXPECT_EQ(config.workers, 3);
  EXPECT_EQ(config.maxRequeue, 15);
}

// client-go's delaying queue keeps one waiting entry per request: a later AddAfter of a request
// that is already waiting is dropped (its failure still counts), an earlier one moves it up.
TEST(AuditBackoff, AWaitingRequestIsAddedOnceAtItsEarliestReadyTime) {
  VirtualClock clock;
  WorkerPool pool(1, clock);
  std::atomic<int> runs{0};
  pool.start([&](size_t, const Request&) { ++runs; });
  Request r = named("a");
  pool.addRateLimited(r);  // ready at 5
  pool.addRateLimited(r);  // ready at 10: dropped, 5 is earlier
  pool.addRateLimited(r);  // ready at 20: dropped
  EXPECT_EQ(pool.numRequeues(r), 3);
  clock.advanceTo(5);
  pool.waitForIdle();
  EXPECT_EQ(runs.load(), 1);
  clock.advanceTo(1000);
  pool.waitForIdle();
  EXPECT_EQ(runs.load(), 1);
  EXPECT_FALSE(clock.nextDue().has_value());

  pool.addRateLimited(r);  // 4th failure: 40 ms, ready at 1040
  pool.forget(r);
  pool.addRateLimited(r);  // first failure again: 5 ms, ready at 1005, replaces 1040
  clock.advanceTo(1005);
  pool.waitForIdle();
  EXPECT_EQ(runs.load(), 2);
  clock.advanceTo(2000);
  pool.waitForIdle();
  EXPECT_EQ(runs.load(), 2);
  pool.stop();
}

Request podEvent(const std::string& event, const std::string& pod, const std::string& uid) {
  Request r = named("a");
  r.event = event;
  r.podName = pod;
  r.podUid = uid;
  return r;
}

DelayAction delayed(const Request& r, const std::string& action) {
  PolicyDecision decision{action, 1000};
  return delayActionOf(r, decision);
}

// §3.3: only PodRunning/PodFailed/PodEvicted requests cancel; a PodPending entry goes with any of
// them of the same pod UID; requests without a pod share the key "".
TEST(AuditDelayedActions, PendingEntryIsCancelledByEveryOtherPodEventOfItsUid) {
  VirtualClock clock;
  DelayedActions d;
  auto arm = [&](const std::shared_ptr<DelayedActions::Entry>& e) { return clock.schedule(e->act.delayMs, [] {}); };
  Request pending = podEvent("PodPending", "p0", "u1");
  for (const char* event : {"PodFailed", "PodEvicted", "PodRunning"}) {
    ASSERT_TRUE(d.add(delayed(pending, "RestartPod"), pending, arm));
    for (const char* other : {"TaskFailed", "TaskCompleted", "OutOfSync", "Unknown", "PodPending"}) {
      d.cancelForPodEvent(podEvent(other, "p0", "u1"));
      EXPECT_EQ(d.count("ns/a"), 1u) << other;
    }
    d.cancelForPodEvent(podEvent(event, "p1", "u1"));  // another pod's name
    EXPECT_EQ(d.count("ns/a"), 1u) << event;
    d.cancelForPodEvent(podEvent(event, "p0", "u1"));
    EXPECT_EQ(d.count("ns/a"), 0u) << event;
  }
  Request unknown = podEvent("Unknown", "", "");
  ASSERT_TRUE(d.add(delayed(unknown, "RestartJob"), unknown, arm));
  Request completed = podEvent("TaskCompleted", "", "");
  ASSERT_TRUE(d.add(delayed(completed, "CompleteJob"), completed, arm));  // overwrites key ""
  EXPECT_EQ(d.count("ns/a"), 1u);
}

class FailingAdd : public NoPluginJobPlugins {
 public:
  Status onJobAdd(Job&, ResourceClient&) override { return Status::error("add fails"); }
};

struct Line {
  TimeMs at;
  bool requeued, limit;
  JobPhase phase;
  friend bool operator==(const Line&, const Line&) = default;
};

class AuditLoop : public ControllerTest {
 protected:
  std::vector<Line> lines() {
    std::vector<Line> out;
    for (const auto& r : take())
      if (r.requeued || r.retryLimitReached) out.push_back({r.at, r.requeued, r.retryLimitReached, r.phase});
    return out;
  }
};

// The add's OutOfSync fails at 0 (ready at 5), its echo of the Pending write fails at 0 again
// (10 ms: dropped, 5 is earlier), fails at 5 (20 ms: ready at 25); at 25 NumRequeues is 3 =
// maxRequeue: TerminateJob.
TEST_F(AuditLoop, RetryLimitIsReachedWhenTheDelayingQueueReleasesTheRequest) {
  FailingAdd failing;
  plugins = &failing;
  start(4, 3);
  submit(makeJob("job", {{"worker", 1}}));
  runTo(24);
  const JobPhase pending = JobPhase::Pending;
  EXPECT_EQ(lines(), (std::vector<Line>{{0, true, false, pending}, {0, true, false, pending}, {5, true, false, pending}}));
  EXPECT_EQ(phase(), JobPhase::Pending);
  runTo(25);
  EXPECT_EQ(lines(), (std::vector<Line>{{25, false, true, JobPhase::Terminating}}));
}

TEST_F(AuditLoop, DefaultMaxRequeueAllowsFifteenRequeuesThenTerminates) {
  FailingAdd failing;
  plugins = &failing;
  start(4, ControllerConfig{}.maxRequeue);
  submit(makeJob("job", {{"worker", 1}}));
  runTo(1'000'000);
  auto all = lines();
  ASSERT_FALSE(all.empty());
  size_t firstLimit = all.size();
  for (size_t i = 0; i < all.size(); ++i)
    if (all[i].limit) {
      firstLimit = i;
      break;
    }
  EXPECT_EQ(firstLimit, 15u);
  EXPECT_NE(phase(), JobPhase::Pending);
}

TEST_F(AuditLoop, MaxRequeueMinusOneRequeuesForever) {
  FailingAdd failing;
  plugins = &failing;
  start(4, -1);
  submit(makeJob("job", {{"worker", 1}}));
  runTo(2'000'000);
  auto all = lines();
  EXPECT_GE(all.size(), 20u);
  for (const auto& l : all) EXPECT_FALSE(l.limit) << l.at;
  EXPECT_EQ(phase(), JobPhase::Pending);
}

// Volcano's updateJob caches the new job whenever its resourceVersion changed; only a spec (or
// phase) change enqueues OutOfSync. Job labels and annotations are copied onto new pods.
TEST_F(AuditLoop, JobUpdateOfAnnotationsOnlyIsCachedWithoutARequest) {
  defaults = runsForever(1000);
  start();
  submit(makeJob("job", {{"worker", 1}}));
  runTo(1000);
  ASSERT_EQ(phase(), JobPhase::Running);
  take();
  Job updated = *controller->getJob(ns, "job");
  updated.metadata.annotations["volcano.sh/preemptable"] = "true";
  updated.metadata.labels["team"] = "a";
  ASSERT_TRUE(controller->updateJob(updated).isOk());
  settle();
  EXPECT_TRUE(take().empty());
  Job cached = *controller->getJob(ns, "job");
  EXPECT_EQ(cached.metadata.annotations["volcano.sh/preemptable"], "true");
  EXPECT_EQ(cached.metadata.labels["team"], "a");
  EXPECT_EQ(cached.status.state.phase, JobPhase::Running);
}

}  // namespace
}  // namespace jobhost::testing
