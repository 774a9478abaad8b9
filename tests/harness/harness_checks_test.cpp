// Names a test hands the harness are checked: a mistyped action, task, pod or injected call throws
// naming it and listing the valid ones, and a pod script set after the pod was created is refused.
#include <gtest/gtest.h>
#include <jobhost/testing/harness.h>

#include "demo_job.h"

namespace jobhost::testing {
namespace {

/// The what() of the E that `call` throws, or "nothing thrown".
template <class E, class F>
std::string thrown(F call) {
  try {
    call();
  } catch (const E& e) {
    return e.what();
  }
  return "nothing thrown";
}

class HarnessChecks : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(h_.ok()) << h_.loadError(); }
  Harness h_{{shipped("env"), shipped("svc")}};
};

constexpr const char* kDemoPods = "(its pods: demo-ps-0, demo-worker-0, demo-worker-1)";

TEST_F(HarnessChecks, AMistypedCommandActionNamesTheActions) {
  ASSERT_TRUE(h_.submit(kDemoJob));
  EXPECT_EQ(thrown<std::invalid_argument>([&] { h_.command("RestratJob"); }),
            "jobhost::testing: command(\"RestratJob\"): no such action (actions: AbortJob, RestartJob, RestartTask, "
            "RestartPod, RestartPartition, TerminateJob, CompleteJob, ResumeJob, SyncJob, EnqueueJob)");
  EXPECT_EQ(h_.phase(), JobPhase::Pending);
}

TEST_F(HarnessChecks, AMistypedCommandTaskOrPodNamesTheJobs) {
  ASSERT_TRUE(h_.submit(kDemoJob));
  EXPECT_EQ(thrown<std::invalid_argument>([&] { h_.command("RestartTask", "wrker"); }),
            "jobhost::testing: command(\"RestartTask\"): job \"demo\" has no task \"wrker\" (its tasks: ps, worker)");
  EXPECT_EQ(thrown<std::invalid_argument>([&] { h_.command("RestartPod", "", "demo-worker-2"); }),
            std::string("jobhost::testing: command(\"RestartPod\"): job \"demo\" has no pod \"demo-worker-2\" ") +
                kDemoPods);
}

TEST_F(HarnessChecks, EvictingAPodThatDoesNotExistNamesThePods) {
  ASSERT_TRUE(h_.submit(kDemoJob));
  EXPECT_EQ(thrown<std::invalid_argument>([&] { h_.evict("demo-wrker-0"); }),
            "jobhost::testing: evict(\"demo-wrker-0\"): no such pod exists now (pods: demo-ps-0, demo-worker-0, "
            "demo-worker-1)");
  EXPECT_EQ(h_.podCreations("demo-worker-0"), 1);
}

TEST_F(HarnessChecks, AScriptForAPodNotOfTheJobFailsTheSubmit) {
  h_.scriptPod("demo-wroker-0", {runsFor(1000)});
  EXPECT_EQ(thrown<std::invalid_argument>([&] { h_.submit(kDemoJob); }),
            std::string("jobhost::testing: scriptPod(\"demo-wroker-0\"): job \"demo\" has no pod \"demo-wroker-0\" ") +
                kDemoPods);
  EXPECT_TRUE(h_.podNames().empty());
}

TEST_F(HarnessChecks, AScriptAfterSubmitIsCheckedAgainstTheJob) {
  ASSERT_TRUE(h_.submit(kDemoJob));
  EXPECT_EQ(thrown<std::invalid_argument>([&] { h_.scriptPod("demo-worker-2", {runsFor(1000)}); }),
            std::string("jobhost::testing: scriptPod(\"demo-worker-2\"): job \"demo\" has no pod \"demo-worker-2\" ") +
                kDemoPods);
}

TEST_F(HarnessChecks, AScriptForAPodAlreadyCreatedIsALogicError) {
  ASSERT_TRUE(h_.submit(kDemoJob));
  EXPECT_EQ(thrown<std::logic_error>([&] { h_.scriptPod("demo-worker-1", {runsFor(2000, 137)}); }),
            "jobhost::testing: scriptPod(\"demo-worker-1\") after the pod was created (1 time(s)): incarnations[0] "
            "is its first creation, so call scriptPod before submit()");
}

TEST_F(HarnessChecks, InjectingAMistypedCallNamesThePluginsCalls) {
  EXPECT_EQ(thrown<std::invalid_argument>([&] { h_.injectThrow("svc", "Bulid"); }),
            "jobhost::testing: injectThrow(\"svc\", \"Bulid\"): plugin \"svc\" has no such call (its calls: Validate, "
            "IdentifyPodNetwork, Build, OnJobAdd, OnPodCreate, OnJobUpdate, OnJobDelete; \"\" clears)");
  EXPECT_EQ(thrown<std::invalid_argument>([&] { h_.injectThrow("env", "Build"); }),
            "jobhost::testing: injectThrow(\"env\", \"Build\"): plugin \"env\" has no such call (its calls: Validate, "
            "OnJobAdd, OnPodCreate, OnJobUpdate, OnJobDelete; \"\" clears)");
  EXPECT_EQ(thrown<std::out_of_range>([&] { h_.injectThrow("quota", "Build"); }),
            "jobhost::testing: no plugin \"quota\" (plugins: env, svc)");
  ASSERT_TRUE(h_.submit(kDemoJob));
  EXPECT_TRUE(h_.syncErrors().empty());
}

}  // namespace
}  // namespace jobhost::testing
