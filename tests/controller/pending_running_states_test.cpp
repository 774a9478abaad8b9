// State table rows for Pending and Running (spec §4), on the sim cluster.
#include <gtest/gtest.h>

#include "controller_fixture.h"

namespace jobhost::testing {
namespace {

class PendingState : public ControllerTest {
 protected:
  void SetUp() override {
    defaults = runsForever(100'000);  // bound but not started: the job stays Pending with 2 pods
    start();
    submit(makeJob("job", {{"worker", 2}}));
    ASSERT_EQ(phase(), JobPhase::Pending);
    ASSERT_EQ(status().pending, 2);
    take();
  }
};

TEST_F(PendingState, RestartJobKillsAllAndRestarts) {
  HandledRequest r = issue("RestartJob");
  EXPECT_EQ(r.action, "RestartJob");
  EXPECT_EQ(r.phase, JobPhase::Restarting);
  EXPECT_EQ(r.retryCount, 1);
  EXPECT_EQ(r.version, 1);
  EXPECT_EQ(r.terminating, 2);
  EXPECT_EQ(r.pending, 0);
  // Pods gone, PodGroup recreated and enqueued: Restarting -> Pending with new pods.
  EXPECT_EQ(phase(), JobPhase::Pending);
  EXPECT_EQ(status().pending, 2);
  EXPECT_EQ(status().version, 1);
  EXPECT_EQ(sim->getPod(ns, "job-worker-0")->uid(), "uid-job-worker-0-2");
}

TEST_F(PendingState, RestartTaskKillsTheTaskKeepsVersionAndPodGroup) {
  HandledRequest r = issue("RestartTask", "worker");
  EXPECT_EQ(r.phase, JobPhase::Restarting);
  EXPECT_EQ(r.retryCount, 1);
  EXPECT_EQ(r.version, 0);
  EXPECT_EQ(r.terminating, 2);
  EXPECT_EQ(phase(), JobPhase::Pending);
  EXPECT_EQ(status().version, 0);
  EXPECT_TRUE(sim->getPodGroup(ns, "job-" + controller->getJob(ns, jobName)->metadata.uid).has_value());
}

TEST_F(PendingState, RestartPodKillsOnePod) {
  HandledRequest r = issue("RestartPod", "", "job-worker-1");
  EXPECT_EQ(r.phase, JobPhase::Restarting);
  EXPECT_EQ(r.retryCount, 1);
  EXPECT_EQ(r.terminating, 1);
  EXPECT_EQ(r.pending, 0);  // only killed pods are counted after a kill
  EXPECT_EQ(sim->getPod(ns, "job-worker-0")->uid(), "uid-job-worker-0-1");
  EXPECT_EQ(sim->getPod(ns, "job-worker-1")->uid(), "uid-job-worker-1-2");
}

TEST_F(PendingState, AbortJobGoesAbortingThenAborted) {
  HandledRequest r = issue("AbortJob");
  EXPECT_EQ(r.phase, JobPhase::Aborting);
  EXPECT_EQ(r.retryCount, 0);
  EXPECT_EQ(r.version, 1);
  EXPECT_EQ(r.terminating, 2);
  EXPECT_EQ(phase(), JobPhase::Aborted);
  EXPECT_EQ(sim->podCount(), 0u);
}

TEST_F(PendingState, CompleteJobGoesCompletingThenCompleted) {
  HandledRequest r = issue("CompleteJob");
  EXPECT_EQ(r.phase, JobPhase::Completing);
  EXPECT_EQ(r.terminating, 2);
  EXPECT_EQ(phase(), JobPhase::Completed);
}

TEST_F(PendingState, TerminateJobGoesTerminatingThenTerminated) {
  HandledRequest r = issue("TerminateJob");
  EXPECT_EQ(r.phase, JobPhase::Terminating);
  EXPECT_EQ(phase(), JobPhase::Terminated);
}

TEST_F(PendingState, OtherActionsSyncAndRunOnceMinAvailableIsUp) {
  HandledRequest r = issue("ResumeJob");
  EXPECT_EQ(r.action, "ResumeJob");
  EXPECT_EQ(r.phase, JobPhase::Pending);
  EXPECT_EQ(r.pending, 2);
  EXPECT_EQ(r.version, 0);
  runTo(100'000);  // pods start: running 2 >= minAvailable 2
  EXPECT_EQ(phase(), JobPhase::Running);
  EXPECT_EQ(status().running, 2);
}

TEST_F(PendingState, PodsAreNotCreatedWhileThePodGroupIsPending) {
  // A second job that does not fit: its PodGroup stays Pending and no pod is created.
  Job big = makeJob("big", {{"worker", 1}});
  big.spec.tasks[0].template_.spec.containers[0].resources.requests["cpu"] = Quantity::fromMilli(1'000'000);
  ASSERT_TRUE(controller->submitJob(big).isOk());
  settle();
  auto job = controller->getJob(ns, "big");
  ASSERT_TRUE(job);
  EXPECT_EQ(job->status.state.phase, JobPhase::Pending);
  EXPECT_EQ(job->status.pending, 0);
  EXPECT_FALSE(sim->getPod(ns, "big-worker-0"));
  EXPECT_EQ(sim->podGroupPhase(ns, "big-" + job->metadata.uid), std::optional<std::string>("Pending"));
}

class RunningState : public ControllerTest {
 protected:
  void SetUp() override {
    defaults = runsForever(1000);
    start();
  }
};

TEST_F(RunningState, RestartJob) {
  run(makeJob("job", {{"worker", 3}}));
  HandledRequest r = issue("RestartJob");
  EXPECT_EQ(r.phase, JobPhase::Restarting);
  EXPECT_EQ(r.retryCount, 1);
  EXPECT_EQ(r.version, 1);
  EXPECT_EQ(r.terminating, 3);
  EXPECT_EQ(r.running, 0);
  runTo(2000);
  EXPECT_EQ(phase(), JobPhase::Running);
  EXPECT_EQ(status().retryCount, 1);
  EXPECT_EQ(status().running, 3);
}

TEST_F(RunningState, RestartTaskOnlyKillsThatTask) {
  run(makeJob("job", {{"ps", 1}, {"worker", 2}}));
  HandledRequest r = issue("RestartTask", "worker");
  EXPECT_EQ(r.phase, JobPhase::Restarting);
  EXPECT_EQ(r.retryCount, 1);
  EXPECT_EQ(r.version, 0);
  EXPECT_EQ(r.terminating, 2);
  EXPECT_EQ(r.running, 0);  // the surviving ps pod is not counted by a kill
  EXPECT_EQ(sim->getPod(ns, "job-ps-0")->uid(), "uid-job-ps-0-1");
  runTo(2000);
  EXPECT_EQ(phase(), JobPhase::Running);
  EXPECT_EQ(status().running, 3);
}

TEST_F(RunningState, RestartPartitionKillsOnePartition) {
  Job job = makeJob("job", {{"worker", 4}});
  job.spec.tasks[0].partitionPolicy = PartitionPolicy{2, 2, std::nullopt, 0};
  run(job);
  HandledRequest r = issue("RestartPartition", "worker", "", "1");
  EXPECT_EQ(r.phase, JobPhase::Restarting);
  EXPECT_EQ(r.terminating, 2);
  EXPECT_EQ(sim->getPod(ns, "job-worker-0")->uid(), "uid-job-worker-0-1");
  EXPECT_EQ(sim->getPod(ns, "job-worker-1")->uid(), "uid-job-worker-1-1");
  EXPECT_EQ(sim->getPod(ns, "job-worker-2")->uid(), "uid-job-worker-2-2");
  EXPECT_EQ(sim->getPod(ns, "job-worker-3")->uid(), "uid-job-worker-3-2");
}

TEST_F(RunningState, RestartPartitionOfUnknownPartitionDoesNothing) {
  Job job = makeJob("job", {{"worker", 4}});
  job.spec.tasks[0].partitionPolicy = PartitionPolicy{2, 2, std::nullopt, 0};
  run(job);
  HandledRequest r = issue("RestartPartition", "worker", "", "7");
  EXPECT_EQ(r.phase, JobPhase::Running);
  EXPECT_EQ(r.retryCount, 0);
  EXPECT_EQ(r.running, 4);
}

TEST_F(RunningState, AbortJob) {
  run(makeJob("job", {{"worker", 2}}));
  HandledRequest r = issue("AbortJob");
  EXPECT_EQ(r.phase, JobPhase::Aborting);
  EXPECT_EQ(r.version, 1);
  EXPECT_EQ(phase(), JobPhase::Aborted);
}

TEST_F(RunningState, TerminateJob) {
  run(makeJob("job", {{"worker", 2}}));
  EXPECT_EQ(issue("TerminateJob").phase, JobPhase::Terminating);
  EXPECT_EQ(phase(), JobPhase::Terminated);
}

TEST_F(RunningState, CompleteJob) {
  run(makeJob("job", {{"worker", 2}}));
  EXPECT_EQ(issue("CompleteJob").phase, JobPhase::Completing);
  EXPECT_EQ(phase(), JobPhase::Completed);
}

TEST_F(RunningState, AllSucceededCompletes) {
  defaults = runs(5000, 0, 1000);
  run(makeJob("job", {{"worker", 2}}));
  runTo(6000);
  EXPECT_EQ(phase(), JobPhase::Completed);
}

TEST_F(RunningState, MinSuccessCompletesEarly) {
  script("job-worker-0", {runs(2000)});
  Job job = makeJob("job", {{"worker", 3}});
  job.spec.minSuccess = 1;
  run(job);
  runTo(3000);
  EXPECT_EQ(phase(), JobPhase::Completed);
}

TEST_F(RunningState, AllFinishedBelowMinSuccessFails) {
  defaults = runs(2000, 0, 1000);
  script("job-worker-0", {runs(2000, 1)});
  script("job-worker-1", {runs(2000, 1)});
  Job job = makeJob("job", {{"worker", 3}});
  job.spec.minAvailable = 1;
  job.spec.minSuccess = 2;
  run(job);
  runTo(3000);
  EXPECT_EQ(phase(), JobPhase::Failed);
}

TEST_F(RunningState, TaskMinAvailableNotMetFails) {
  defaults = runs(2000, 0, 1000);
  script("job-worker-0", {runs(2000, 1)});
  run(makeJob("job", {{"ps", 1}, {"worker", 2, {}, 2}}));
  runTo(3000);
  EXPECT_EQ(phase(), JobPhase::Failed);
  EXPECT_EQ(status().retryCount, 0);
}

TEST_F(RunningState, SucceededBelowMinAvailableFails) {
  defaults = runs(2000, 1, 1000);
  run(makeJob("job", {{"worker", 2}}));
  runTo(3000);
  EXPECT_EQ(phase(), JobPhase::Failed);
}

TEST_F(RunningState, SucceededAtMinAvailableCompletesDespiteFailures) {
  defaults = runs(2000, 0, 1000);
  script("job-worker-2", {runs(2000, 3)});
  Job job = makeJob("job", {{"worker", 3}});
  job.spec.minAvailable = 2;
  run(job);
  runTo(3000);
  EXPECT_EQ(phase(), JobPhase::Completed);
}

TEST_F(RunningState, FallsBackToPendingWhenTooManyPodsPending) {
  Job job = makeJob("job", {{"worker", 2}});
  job.spec.policies = {onEvent("PodEvicted", "RestartPod")};
  run(job);
  script("job-worker-0", {runsForever(1000), runsForever(50'000)});
  sim->evictPod(ns, "job-worker-0");
  settle();
  // RestartPod -> Restarting -> Pending (one pod pending > 2 - 2).
  EXPECT_EQ(phase(), JobPhase::Pending);
  runTo(60'000);
  EXPECT_EQ(phase(), JobPhase::Running);
}

}  // namespace
}  // namespace jobhost::testing
