// applyPolicies (spec §3): one test per rule and per stated consequence.
#include <gtest/gtest.h>

#include "controller_fixture.h"
#include "host/controller/policies.h"
#include "host/spec/duration.h"

namespace jobhost::testing {
namespace {

Job policyJob() {
  Job job = makeJob("job", {{"worker", 2}, {"ps", 1}});
  job.metadata.uid = "uid-1";
  job.status.version = 2;
  return job;
}

Request podRequest(const std::string& event, const std::string& task = "worker") {
  Request r;
  r.namespace_ = "default";
  r.jobName = "job";
  r.jobUid = "uid-1";
  r.taskName = task;
  r.podName = "job-" + task + "-0";
  r.podUid = "pod-uid";
  r.event = event;
  r.jobVersion = 2;
  return r;
}

TEST(ApplyPolicies, ExplicitActionWinsWithoutDelay) {
  Job job = policyJob();
  job.spec.policies = {onEvent("*", "RestartJob", 5000)};
  Request r = podRequest("CommandIssued");
  r.action = "AbortJob";
  DelayAction a = applyPolicies(job, r);
  EXPECT_EQ(a.action, "AbortJob");
  EXPECT_EQ(a.delayMs, 0);
  EXPECT_EQ(a.jobKey, "default/job");
  EXPECT_EQ(a.podName, "job-worker-0");
}

TEST(ApplyPolicies, InternalEventsAreSyncJob) {
  Job job = policyJob();
  job.spec.policies = {onEvent("*", "RestartJob")};
  for (const char* e : {"OutOfSync", "CommandIssued", "PodRunning"}) EXPECT_EQ(applyPolicies(job, podRequest(e)).action, "SyncJob") << e;
}

TEST(ApplyPolicies, StaleJobUidIsSyncJob) {
  Job job = policyJob();
  job.spec.policies = {onEvent("PodFailed", "RestartJob")};
  Request r = podRequest("PodFailed");
  r.jobUid = "uid-of-a-deleted-job";
  EXPECT_EQ(applyPolicies(job, r).action, "SyncJob");
  r.jobUid = "";
  EXPECT_EQ(applyPolicies(job, r).action, "RestartJob");
}

TEST(ApplyPolicies, StaleVersionIsSyncJob) {
  Job job = policyJob();
  job.spec.policies = {onEvent("PodFailed", "RestartJob")};
  Request r = podRequest("PodFailed");
  r.jobVersion = 1;
  EXPECT_EQ(applyPolicies(job, r).action, "SyncJob");
  r.jobVersion = 3;
  EXPECT_EQ(applyPolicies(job, r).action, "RestartJob");
}

TEST(ApplyPolicies, TaskPoliciesShadowJobPolicies) {
  Job job = policyJob();
  job.spec.tasks[0].policies = {onEvent("PodFailed", "RestartTask")};
  job.spec.policies = {onEvent("PodFailed", "AbortJob")};
  EXPECT_EQ(applyPolicies(job, podRequest("PodFailed")).action, "RestartTask");
  EXPECT_EQ(applyPolicies(job, podRequest("PodFailed", "ps")).action, "AbortJob");
  Request noTask = podRequest("PodFailed");
  noTask.taskName = "";
  EXPECT_EQ(applyPolicies(job, noTask).action, "AbortJob");
}

TEST(ApplyPolicies, TaskWithoutMatchFallsBackToJobPolicies) {
  Job job = policyJob();
  job.spec.tasks[0].policies = {onEvent("PodEvicted", "RestartTask")};
  job.spec.policies = {onEvent("PodFailed", "AbortJob")};
  EXPECT_EQ(applyPolicies(job, podRequest("PodFailed")).action, "AbortJob");
}

TEST(ApplyPolicies, EventsListAndEventAreBothMatched) {
  Job job = policyJob();
  LifecyclePolicy p;
  p.events = {"PodEvicted", "Unknown"};
  p.event = "TaskFailed";
  p.action = "RestartJob";
  job.spec.policies = {p};
  for (const char* e : {"PodEvicted", "Unknown", "TaskFailed"}) EXPECT_EQ(applyPolicies(job, podRequest(e)).action, "RestartJob") << e;
  EXPECT_EQ(applyPolicies(job, podRequest("PodFailed")).action, "SyncJob");
}

TEST(ApplyPolicies, AnyMatchesEveryNonInternalEvent) {
  Job job = policyJob();
  job.spec.policies = {onEvent("*", "TerminateJob")};
  for (const char* e : {"PodFailed", "PodEvicted", "Unknown", "TaskCompleted", "TaskFailed"})
    EXPECT_EQ(applyPolicies(job, podRequest(e)).action, "TerminateJob") << e;
  Request empty = podRequest("");
  EXPECT_EQ(applyPolicies(job, empty).action, "SyncJob");  // PodGroup phase change: event ""
}

TEST(ApplyPolicies, PodPendingNeedsTimeoutAndSkipsToNextPolicy) {
  Job job = policyJob();
  job.spec.policies = {onEvent("PodPending", "RestartJob"), onEvent("*", "AbortJob")};
  // Without a timeout the first policy is skipped; `*` also needs a timeout for PodPending.
  EXPECT_EQ(applyPolicies(job, podRequest("PodPending")).action, "SyncJob");
  job.spec.policies = {onEvent("PodPending", "RestartJob"), onEvent("*", "AbortJob", 30000)};
  DelayAction a = applyPolicies(job, podRequest("PodPending"));
  EXPECT_EQ(a.action, "AbortJob");
  EXPECT_EQ(a.delayMs, 30000);
}

TEST(ApplyPolicies, TimeoutDelaysAnyMatchedEvent) {
  Job job = policyJob();
  job.spec.policies = {onEvent("PodFailed", "RestartJob", 15000)};
  DelayAction a = applyPolicies(job, podRequest("PodFailed"));
  EXPECT_EQ(a.action, "RestartJob");
  EXPECT_EQ(a.delayMs, 15000);
  EXPECT_EQ(a.event, "PodFailed");
  EXPECT_EQ(a.podUid, "pod-uid");
  // A timeout under 1 ms is still a timeout: Volcano delays whenever it is non-zero.
  job.spec.policies = {onEvent("PodFailed", "RestartJob", parseGoDuration("500us")->ms)};
  EXPECT_EQ(applyPolicies(job, podRequest("PodFailed")).delayMs, 1);
}

TEST(ApplyPolicies, ExitCodeMatchesRequestExitCode) {
  Job job = policyJob();
  job.spec.tasks[0].policies = {onExitCode(137, "RestartPod")};
  Request r = podRequest("PodFailed");
  r.exitCode = 137;
  EXPECT_EQ(applyPolicies(job, r).action, "RestartPod");
  r.exitCode = 1;
  EXPECT_EQ(applyPolicies(job, r).action, "SyncJob");
  LifecyclePolicy timed = onExitCode(3, "RestartTask");
  timed.timeout = Duration{2000};
  job.spec.policies = {timed};
  r.exitCode = 3;
  DelayAction a = applyPolicies(job, r);
  EXPECT_EQ(a.action, "RestartTask");
  EXPECT_EQ(a.delayMs, 2000);
}

TEST(ApplyPolicies, NoMatchIsSyncJob) {
  Job job = policyJob();
  job.spec.policies = {onEvent("PodEvicted", "RestartJob")};
  DelayAction a = applyPolicies(job, podRequest("PodFailed"));
  EXPECT_EQ(a.action, "SyncJob");
  EXPECT_EQ(a.delayMs, 0);
}

TEST(ApplyPolicies, OnlyTheFirstTaskWithTheNameIsConsulted) {
  Job job = policyJob();
  job.spec.tasks[1].name = "worker";
  job.spec.tasks[1].policies = {onEvent("PodFailed", "AbortJob")};
  EXPECT_EQ(applyPolicies(job, podRequest("PodFailed")).action, "SyncJob");
}

TEST(ActionTypes, TypesInternalActionsAndTargets) {
  EXPECT_EQ(actionTypeOf("RestartTask"), ActionType::Task);
  EXPECT_EQ(actionTypeOf("RestartPod"), ActionType::Pod);
  EXPECT_EQ(actionTypeOf("RestartPartition"), ActionType::Partition);
  EXPECT_EQ(actionTypeOf("SyncJob"), ActionType::Job);
  EXPECT_EQ(actionTypeOf("AbortJob"), ActionType::Job);
  EXPECT_TRUE(isInternalAction("SyncJob"));
  EXPECT_TRUE(isInternalAction("EnqueueJob"));
  EXPECT_FALSE(isInternalAction("RestartJob"));
  DelayAction a;
  a.action = "RestartPartition";
  a.taskName = "worker";
  a.podName = "job-worker-3";
  a.partition = "1";
  StateAction s = stateActionOf(a);
  ASSERT_TRUE(s.hasTarget);
  EXPECT_EQ(s.target.type, KillTarget::Type::Partition);
  EXPECT_EQ(s.target.partition, "1");
  a.action = "AbortJob";
  EXPECT_FALSE(stateActionOf(a).hasTarget);
}

}  // namespace
}  // namespace jobhost::testing
