// State table rows for Restarting, Completing, Terminating, Aborting, Aborted and the finished
// states (spec §4). Two commands issued together let the second run in the first one's state.
#include <gtest/gtest.h>

#include "controller_fixture.h"

namespace jobhost::testing {
namespace {

class LaterStates : public ControllerTest {
 protected:
  void SetUp() override {
    defaults = runsForever(1000);
    start();
  }
  void run(Job job) {
    submit(job);
    runTo(1000);
    ASSERT_EQ(phase(), JobPhase::Running);
    take();
  }
  /// Issues both commands before settling; returns the lines of the two CommandIssued requests.
  std::vector<HandledRequest> twoCommands(const std::string& first, const std::string& second,
                                          const std::string& task = "") {
    EXPECT_TRUE(controller->issueCommand(Command{ns, jobName, first, "", "", ""}).isOk());
    EXPECT_TRUE(controller->issueCommand(Command{ns, jobName, second, task, "", ""}).isOk());
    settle();
    auto lines = takeEvent("CommandIssued");
    EXPECT_EQ(lines.size(), 2u);
    return lines;
  }
};

TEST_F(LaterStates, RestartingSyncJobGoesPendingOnceEnoughPodsAreBack) {
  run(makeJob("job", {{"worker", 2}}));
  command("RestartJob");
  std::vector<HandledRequest> lines = take();
  // Find the sync that left Restarting: it is a SyncJob and lands in Pending.
  JobPhase before = JobPhase::Restarting;
  bool seen = false;
  for (const auto& r : lines) {
    if (before == JobPhase::Restarting && r.phase == JobPhase::Pending) {
      EXPECT_EQ(r.action, "SyncJob");
      EXPECT_EQ(r.pending, 2);
      EXPECT_EQ(r.terminating, 0);
      seen = true;
    }
    before = r.phase;
  }
  EXPECT_TRUE(seen);
}

TEST_F(LaterStates, RestartingFailsWhenRetriesAreUsedUp) {
  Job job = makeJob("job", {{"worker", 2}});
  job.spec.maxRetry = 1;
  run(job);
  HandledRequest r = issue("RestartJob");
  EXPECT_EQ(r.phase, JobPhase::Restarting);
  EXPECT_EQ(r.retryCount, 1);
  EXPECT_EQ(phase(), JobPhase::Failed);
  EXPECT_EQ(status().retryCount, 1);
}

TEST_F(LaterStates, RestartingTargetedKillDoesNotCountARetry) {
  run(makeJob("job", {{"worker", 2}}));
  auto lines = twoCommands("RestartJob", "RestartTask", "worker");
  EXPECT_EQ(lines[0].phase, JobPhase::Restarting);
  EXPECT_EQ(lines[0].retryCount, 1);
  EXPECT_EQ(lines[1].action, "RestartTask");
  EXPECT_EQ(lines[1].retryCount, 1);
  EXPECT_EQ(lines[1].version, 1);
  EXPECT_EQ(lines[1].phase, JobPhase::Pending);  // restartingUpdateStatus: 2 - 0 >= 2
}

TEST_F(LaterStates, RestartingIgnoresAbortAndKillsAgain) {
  run(makeJob("job", {{"worker", 2}}));
  auto lines = twoCommands("RestartJob", "AbortJob");
  EXPECT_EQ(lines[1].action, "AbortJob");
  EXPECT_NE(lines[1].phase, JobPhase::Aborting);
  EXPECT_EQ(lines[1].phase, JobPhase::Pending);
  EXPECT_EQ(lines[1].version, 2);  // a second full kill
  EXPECT_EQ(lines[1].retryCount, 1);
}

TEST_F(LaterStates, CompletingWaitsForLivePodsThenCompletes) {
  run(makeJob("job", {{"worker", 2}}));
  auto lines = twoCommands("CompleteJob", "ResumeJob");
  EXPECT_EQ(lines[0].phase, JobPhase::Completing);
  EXPECT_EQ(lines[0].terminating, 2);
  EXPECT_EQ(lines[1].phase, JobPhase::Completed);  // pods gone: no live pods
  EXPECT_EQ(lines[1].version, 2);
}

TEST_F(LaterStates, TerminatingCompletesAsTerminated) {
  run(makeJob("job", {{"worker", 2}}));
  auto lines = twoCommands("TerminateJob", "RestartJob");
  EXPECT_EQ(lines[0].phase, JobPhase::Terminating);
  EXPECT_EQ(lines[1].phase, JobPhase::Terminated);
  EXPECT_EQ(lines[1].retryCount, 0);
}

TEST_F(LaterStates, AbortingResumeRestarts) {
  run(makeJob("job", {{"worker", 2}}));
  auto lines = twoCommands("AbortJob", "ResumeJob");
  EXPECT_EQ(lines[0].phase, JobPhase::Aborting);
  EXPECT_EQ(lines[1].phase, JobPhase::Restarting);
  EXPECT_EQ(lines[1].retryCount, 1);
  EXPECT_EQ(lines[1].version, 2);
  runTo(3000);
  EXPECT_EQ(phase(), JobPhase::Running);
}

TEST_F(LaterStates, AbortingOtherActionsEndAborted) {
  run(makeJob("job", {{"worker", 2}}));
  auto lines = twoCommands("AbortJob", "RestartJob");
  EXPECT_EQ(lines[1].phase, JobPhase::Aborted);
  EXPECT_EQ(lines[1].retryCount, 0);
}

TEST_F(LaterStates, AbortedResumeRestarts) {
  run(makeJob("job", {{"worker", 2}}));
  command("AbortJob");
  ASSERT_EQ(phase(), JobPhase::Aborted);
  take();
  HandledRequest r = issue("ResumeJob");
  EXPECT_EQ(r.phase, JobPhase::Restarting);
  EXPECT_EQ(r.retryCount, 1);
  runTo(3000);
  EXPECT_EQ(phase(), JobPhase::Running);
}

TEST_F(LaterStates, AbortedOtherActionsOnlyBumpVersion) {
  run(makeJob("job", {{"worker", 2}}));
  command("AbortJob");
  ASSERT_EQ(phase(), JobPhase::Aborted);
  JobStatus before = status();
  take();
  HandledRequest r = issue("RestartJob");
  EXPECT_EQ(r.phase, JobPhase::Aborted);
  EXPECT_EQ(r.retryCount, 0);
  EXPECT_EQ(r.version, before.version + 1);
  EXPECT_EQ(status().state.lastTransitionTime, before.state.lastTransitionTime);
  EXPECT_EQ(status().conditions, before.conditions);
}

TEST_F(LaterStates, FinishedStatesKeepThePhaseAndRecountOnlyKilledPods) {
  defaults = runs(2000, 0, 1000);
  run(makeJob("job", {{"worker", 2}}));
  runTo(3000);
  ASSERT_EQ(phase(), JobPhase::Completed);
  JobStatus before = status();
  take();
  HandledRequest r = issue("RestartJob");
  EXPECT_EQ(r.phase, JobPhase::Completed);
  EXPECT_EQ(r.version, before.version + 1);
  EXPECT_EQ(r.succeeded, 0);  // retained Succeeded pods are not counted by a kill
  EXPECT_EQ(r.retryCount, 0);
  EXPECT_EQ(sim->podCount(), 2u);  // Succeeded pods are retained
}

TEST_F(LaterStates, FailedAndTerminatedIgnoreCommandsToo) {
  defaults = runs(2000, 1, 1000);
  run(makeJob("job", {{"worker", 1}}));
  runTo(3000);
  ASSERT_EQ(phase(), JobPhase::Failed);
  EXPECT_EQ(issue("ResumeJob").phase, JobPhase::Failed);
  EXPECT_EQ(issue("AbortJob").phase, JobPhase::Failed);
}

}  // namespace
}  // namespace jobhost::testing
