// validatePolicies: Volcano's rules, stop-at-first-error walk, the "*" rule, go-multierror text,
// and the precise field of each finding.
#include "host/admission/policy_validation.h"

#include <gtest/gtest.h>

#include "tests/workload/job_fixtures.h"

namespace jobhost {
namespace {

using fixtures::eventPolicy;
using fixtures::exitCodePolicy;

struct PolicyCase {
  const char* name;
  std::vector<LifecyclePolicy> policies;
  std::string error;                                           // multierror text
  std::vector<std::pair<std::string, std::string>> findings;  // field, message
};

LifecyclePolicy both() {
  LifecyclePolicy p = eventPolicy("PodFailed", "AbortJob");
  p.exitCode = 1;
  return p;
}

LifecyclePolicy events(std::vector<std::string> list, std::string action) {
  LifecyclePolicy p;
  p.events = std::move(list);
  p.action = std::move(action);
  return p;
}

std::string one(const std::string& e) { return "1 error occurred:\n\t* " + e + "\n\n"; }

class Policies : public testing::TestWithParam<PolicyCase> {};

TEST_P(Policies, Check) {
  const PolicyCase& c = GetParam();
  PolicyCheck check = validatePolicies(c.policies, "spec.policies", "spec.policies");
  EXPECT_EQ(check.error, c.error);
  std::vector<std::pair<std::string, std::string>> findings;
  for (const auto& f : check.findings) findings.emplace_back(f.field, f.message);
  EXPECT_EQ(findings, c.findings);
}

INSTANTIATE_TEST_SUITE_P(
    Rules, Policies,
    testing::Values(
        PolicyCase{"Valid", {eventPolicy("PodEvicted", "RestartTask"), exitCodePolicy(3, "RestartJob")}, "", {}},
        PolicyCase{"EventAndExitCode", {both()}, one("must not specify event and exitCode simultaneously"),
                   {{"spec.policies[0]", "must not specify event and exitCode simultaneously"}}},
        PolicyCase{"Neither", {LifecyclePolicy{"AbortJob", "", {}, std::nullopt, std::nullopt}},
                   one("either event and exitCode should be specified"),
                   {{"spec.policies[0]", "either event and exitCode should be specified"}}},
        PolicyCase{"InvalidEvent", {eventPolicy("Foo", "AbortJob")},
                   one("spec.policies: Invalid value: \"Foo\": invalid policy event"),
                   {{"spec.policies[0].event", "Invalid value: \"Foo\": invalid policy event"}}},
        PolicyCase{"InternalEventsAreInvalid", {events({"PodFailed", "OutOfSync"}, "AbortJob")},
                   one("spec.policies: Invalid value: \"OutOfSync\": invalid policy event"),
                   {{"spec.policies[0].events[1]", "Invalid value: \"OutOfSync\": invalid policy event"}}},
        PolicyCase{"PodRunningIsInvalid", {eventPolicy("PodRunning", "AbortJob")},
                   one("spec.policies: Invalid value: \"PodRunning\": invalid policy event"),
                   {{"spec.policies[0].event", "Invalid value: \"PodRunning\": invalid policy event"}}},
        PolicyCase{"InvalidAction", {eventPolicy("PodFailed", "SyncJob")},
                   one("spec.policies: Invalid value: \"SyncJob\": invalid policy action"),
                   {{"spec.policies[0].action", "Invalid value: \"SyncJob\": invalid policy action"}}},
        PolicyCase{"RestartPartitionAndPodPendingAreValid", {eventPolicy("PodPending", "RestartPartition")}, "", {}},
        PolicyCase{"RepeatsInsideOnePolicyAreDropped", {events({"PodFailed", "PodFailed"}, "AbortJob")}, "", {}},
        PolicyCase{"EventAlsoInEventsIsOneEvent",
                   {LifecyclePolicy{"AbortJob", "PodFailed", {"PodFailed"}, std::nullopt, std::nullopt}}, "", {}},
        PolicyCase{"DuplicateAcrossPolicies", {eventPolicy("PodFailed", "AbortJob"), eventPolicy("PodFailed", "RestartJob")},
                   one("duplicate event PodFailed  across different policy"),
                   {{"spec.policies[1].event", "duplicate event PodFailed  across different policy"}}},
        PolicyCase{"ExitCodeZero", {exitCodePolicy(0, "AbortJob")}, one("0 is not a valid error code"),
                   {{"spec.policies[0].exitCode", "0 is not a valid error code"}}},
        PolicyCase{"DuplicateExitCode", {exitCodePolicy(3, "AbortJob"), exitCodePolicy(3, "RestartJob")},
                   one("duplicate exitCode 3"), {{"spec.policies[1].exitCode", "duplicate exitCode 3"}}},
        PolicyCase{"ExitCodeActionIsNotChecked", {exitCodePolicy(-1, "NoSuchAction")}, "", {}},
        PolicyCase{"StarWithOthers", {eventPolicy("*", "AbortJob"), eventPolicy("PodFailed", "RestartJob")},
                   one("if there's * here, no other policy should be here"),
                   {{"spec.policies", "if there's * here, no other policy should be here"}}},
        PolicyCase{"FirstErrorStopsTheWalk", {eventPolicy("Foo", "AbortJob"), exitCodePolicy(0, "AbortJob")},
                   one("spec.policies: Invalid value: \"Foo\": invalid policy event"),
                   {{"spec.policies[0].event", "Invalid value: \"Foo\": invalid policy event"}}},
        PolicyCase{"TwoErrors",
                   {eventPolicy("*", "AbortJob"), eventPolicy("PodFailed", "RestartJob"), eventPolicy("PodFailed", "AbortJob")},
                   "2 errors occurred:\n\t* duplicate event PodFailed  across different policy\n\t* if there's * here, "
                   "no other policy should be here\n\n",
                   {{"spec.policies[2].event", "duplicate event PodFailed  across different policy"},
                    {"spec.policies", "if there's * here, no other policy should be here"}}}),
    [](const testing::TestParamInfo<PolicyCase>& info) { return info.param.name; });

TEST(Policies, TaskPathsAndSuffix) {
  PolicyCheck check = validatePolicies({eventPolicy("Foo", "AbortJob")}, "spec.tasks.policies", "spec.tasks[2].policies");
  EXPECT_EQ(check.error, one("spec.tasks.policies: Invalid value: \"Foo\": invalid policy event"));
  ASSERT_EQ(check.findings.size(), 1u);
  EXPECT_EQ(check.findings[0].field, "spec.tasks[2].policies[0].event");
  EXPECT_EQ(validPoliciesSuffix(),
            " valid events are [* PodFailed PodEvicted PodPending Unknown TaskCompleted TaskFailed JobUpdated], valid "
            "actions are [AbortJob RestartJob RestartTask RestartPod RestartPartition TerminateJob CompleteJob "
            "ResumeJob];");
}

}  // namespace
}  // namespace jobhost
