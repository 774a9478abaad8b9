// DelayedActions (spec §3.2-3.3): keep-same-action, overwrite without cancel, pod-event
// cancellation with UIDs (including the #5507 fix) and cleanup by action type.
#include <gtest/gtest.h>

#include "host/controller/delayed_actions.h"
#include "host/controller/virtual_clock.h"

namespace jobhost {
namespace {

struct Armed {
  VirtualClock clock;
  std::vector<std::string> fired;
  DelayedActions::Arm arm() {
    return [this](const std::shared_ptr<DelayedActions::Entry>& e) {
      return clock.schedule(e->act.delayMs, [this, e] {
        if (!e->cancelled) fired.push_back(e->act.action + ":" + e->act.podName);
      });
    };
  }
};

DelayAction act(const std::string& event, const std::string& action, const std::string& pod, const std::string& uid,
                const std::string& task = "worker", const std::string& partition = "") {
  DelayAction a;
  a.jobKey = "ns/job";
  a.event = event;
  a.action = action;
  a.podName = pod;
  a.podUid = uid;
  a.taskName = task;
  a.partition = partition;
  a.delayMs = 1000;
  return a;
}

Request req(const std::string& event, const std::string& pod, const std::string& uid) {
  Request r;
  r.namespace_ = "ns";
  r.jobName = "job";
  r.event = event;
  r.podName = pod;
  r.podUid = uid;
  return r;
}

TEST(DelayedActions, SameActionForSamePodIsKept) {
  Armed a;
  DelayedActions d;
  EXPECT_TRUE(d.add(act("PodPending", "RestartPod", "p0", "u1"), req("PodPending", "p0", "u1"), a.arm()));
  a.clock.advanceTo(500);
  EXPECT_FALSE(d.add(act("PodPending", "RestartPod", "p0", "u1"), req("PodPending", "p0", "u1"), a.arm()));
  a.clock.advanceTo(1000);
  EXPECT_EQ(a.fired, std::vector<std::string>({"RestartPod:p0"}));  // not reset to 1500
}

TEST(DelayedActions, OtherActionOverwritesWithoutCancellingTheOldTimer) {
  Armed a;
  DelayedActions d;
  d.add(act("PodFailed", "RestartPod", "p0", "u1"), req("PodFailed", "p0", "u1"), a.arm());
  d.add(act("PodFailed", "RestartTask", "p0", "u1"), req("PodFailed", "p0", "u1"), a.arm());
  EXPECT_EQ(d.count("ns/job"), 1u);
  a.clock.advanceTo(1000);
  EXPECT_EQ(a.fired, std::vector<std::string>({"RestartPod:p0", "RestartTask:p0"}));
}

TEST(DelayedActions, PodPendingActionIsCancelledOnlyBySamePodUid) {
  Armed a;
  DelayedActions d;
  d.add(act("PodPending", "RestartPod", "p0", "u1"), req("PodPending", "p0", "u1"), a.arm());
  d.cancelForPodEvent(req("PodRunning", "p0", "u2"));  // a recreated pod of the same name
  EXPECT_EQ(d.count("ns/job"), 1u);
  d.cancelForPodEvent(req("PodPending", "p0", "u1"));  // PodPending never cancels
  EXPECT_EQ(d.count("ns/job"), 1u);
  d.cancelForPodEvent(req("PodRunning", "p0", "u1"));
  EXPECT_EQ(d.count("ns/job"), 0u);
  a.clock.advanceTo(1000);
  EXPECT_TRUE(a.fired.empty());
}

TEST(DelayedActions, PodFailedActionCancelledByRunningOfTheSamePodOnly_Issue5507) {
  Armed a;
  DelayedActions d;
  d.add(act("PodFailed", "RestartTask", "p0", "u1"), req("PodFailed", "p0", "u1"), a.arm());
  d.cancelForPodEvent(req("PodRunning", "p0", "u2"));  // Volcano would cancel here
  EXPECT_EQ(d.count("ns/job"), 1u);
  d.cancelForPodEvent(req("PodFailed", "p0", "u1"));  // only PodRunning cancels it
  EXPECT_EQ(d.count("ns/job"), 1u);
  d.cancelForPodEvent(req("PodRunning", "p0", "u1"));
  EXPECT_EQ(d.count("ns/job"), 0u);
}

TEST(DelayedActions, EvictedActionCancelledByRunning) {
  Armed a;
  DelayedActions d;
  d.add(act("PodEvicted", "RestartPod", "p0", "u1"), req("PodEvicted", "p0", "u1"), a.arm());
  d.cancelForPodEvent(req("OutOfSync", "p0", "u1"));  // not a pod event
  EXPECT_EQ(d.count("ns/job"), 1u);
  d.cancelForPodEvent(req("PodRunning", "p0", "u1"));
  EXPECT_EQ(d.count("ns/job"), 0u);
}

TEST(DelayedActions, CleanupRemovesSameTypeOnly) {
  Armed a;
  DelayedActions d;
  d.add(act("PodFailed", "RestartTask", "a0", "1", "a"), req("PodFailed", "a0", "1"), a.arm());
  d.add(act("PodFailed", "RestartTask", "b0", "2", "b"), req("PodFailed", "b0", "2"), a.arm());
  d.add(act("PodFailed", "RestartPod", "c0", "3", "c"), req("PodFailed", "c0", "3"), a.arm());
  d.add(act("PodFailed", "RestartPartition", "d0", "4", "d", "0"), req("PodFailed", "d0", "4"), a.arm());
  d.add(act("Unknown", "RestartJob", "", ""), req("Unknown", "", ""), a.arm());
  d.cleanup(act("PodFailed", "RestartTask", "x", "x", "a"));  // same task only
  EXPECT_EQ(d.count("ns/job"), 4u);
  d.cleanup(act("PodFailed", "RestartPod", "zz", "x", "c"));  // other pod: nothing
  EXPECT_EQ(d.count("ns/job"), 4u);
  d.cleanup(act("PodFailed", "RestartPartition", "x", "x", "other-task", "0"));  // task not compared
  EXPECT_EQ(d.count("ns/job"), 3u);
  d.cleanup(act("", "AbortJob", "", ""));  // job type: every job-type entry
  EXPECT_EQ(d.count("ns/job"), 2u);
  a.clock.advanceTo(1000);
  EXPECT_EQ(a.fired, std::vector<std::string>({"RestartTask:b0", "RestartPod:c0"}));
}

}  // namespace
}  // namespace jobhost
