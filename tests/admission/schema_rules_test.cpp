// Rules Volcano moved to the CRD schema and the ValidatingAdmissionPolicy: reported as errors with
// the VAP/OpenAPI wording, outside the webhook message.
#include <gtest/gtest.h>

#include <algorithm>

#include "host/admission/admission.h"
#include "tests/admission/admission_test_util.h"
#include "tests/workload/job_fixtures.h"

namespace jobhost {
namespace {

using testing_admission::Errors;
using testing_admission::errorsOf;
using testing_admission::standardConfig;

struct SchemaCase {
  const char* name;
  void (*change)(Job&);
  Errors expected;
};

class SchemaRules : public testing::TestWithParam<SchemaCase> {};

TEST_P(SchemaRules, ReportedOutsideTheWebhookMessage) {
  Job j = fixtures::job("job1", {fixtures::task("t1", 2)});
  GetParam().change(j);
  AdmissionResult r = validateJobCreate(j, standardConfig());
  EXPECT_FALSE(r.allowed);
  EXPECT_EQ(r.message, "");
  EXPECT_EQ(errorsOf(r), GetParam().expected);
}

INSTANTIATE_TEST_SUITE_P(
    Rules, SchemaRules,
    testing::Values(
        SchemaCase{"JobMinAvailable", [](Job& j) { j.spec.minAvailable = -1; },
                   {{"spec.minAvailable", "job 'minAvailable' must be >= 0"}}},
        SchemaCase{"MaxRetry", [](Job& j) { j.spec.maxRetry = -1; }, {{"spec.maxRetry", "'maxRetry' cannot be less than zero"}}},
        SchemaCase{"Ttl", [](Job& j) { j.spec.ttlSecondsAfterFinished = -5; },
                   {{"spec.ttlSecondsAfterFinished", "'ttlSecondsAfterFinished' cannot be less than zero"}}},
        SchemaCase{"TaskMinAvailable", [](Job& j) { j.spec.tasks[0].minAvailable = -1; },
                   {{"spec.tasks[0].minAvailable", "'minAvailable' < 0 in task"}}},
        SchemaCase{"MinSuccess", [](Job& j) { j.spec.minSuccess = 0; },
                   {{"spec.minSuccess", "Invalid value: 0: spec.minSuccess in body should be greater than or equal to 1"}}},
        SchemaCase{"PriorityClassName", [](Job& j) { j.spec.priorityClassName = "Bad_P"; },
                   {{"spec.priorityClassName",
                     "Invalid value: \"Bad_P\": spec.priorityClassName in body should match "
                     "'^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$'"}}},
        SchemaCase{"PriorityClassNameLength", [](Job& j) { j.spec.priorityClassName = std::string(254, 'p'); },
                   {{"spec.priorityClassName", "Too long: may not be more than 253 bytes"}}},
        // The Job CRD is a structural schema: a field it does not declare is refused by the API
        // server's strict field validation (kubectl's default), worded as Kubernetes words it.
        SchemaCase{"UnknownFields",
                   [](Job& j) {
                     j.unknown = {{"extra", "1"}};
                     j.spec.unknown = {{"foo", "1"}, {"replicas", "2"}};
                     j.spec.tasks[0].unknown = {{"bar", "{}"}};
                   },
                   {{"extra", "unknown field \"extra\""},
                    {"spec.foo", "unknown field \"spec.foo\""},
                    {"spec.replicas", "unknown field \"spec.replicas\""},
                    {"spec.tasks[0].bar", "unknown field \"spec.tasks[0].bar\""}}},
        // The VAP checks the action of every job-level policy that has one, exit-code policies
        // included (the webhook does not check those); task policies are not looked at.
        SchemaCase{"JobExitCodePolicyAction",
                   [](Job& j) {
                     j.spec.policies = {fixtures::exitCodePolicy(3, "RestartJob"), fixtures::exitCodePolicy(4, "Reboot")};
                     j.spec.tasks[0].policies = {fixtures::exitCodePolicy(5, "Reboot")};
                   },
                   {{"spec.policies[1].action", "invalid policy action"}}}),
    [](const testing::TestParamInfo<SchemaCase>& info) { return info.param.name; });

TEST(SchemaRules, RestartPartitionAndValidActionsPassTheVapActionRule) {
  Job j = fixtures::job("job1", {fixtures::task("t1", 2)});
  j.spec.policies = {fixtures::exitCodePolicy(3, "RestartPartition"), fixtures::exitCodePolicy(4, "AbortJob"),
                     fixtures::exitCodePolicy(5, "")};  // no action: nothing to check
  EXPECT_TRUE(validateJobCreate(j, standardConfig()).allowed);
}

TEST(SchemaRules, ReplicasBelowZeroAlsoFailsTheWebhookTotals) {
  Job j = fixtures::job("job1", {fixtures::task("t1", -1)});
  j.spec.minAvailable = 0;
  AdmissionResult r = validateJobCreate(j, standardConfig());
  EXPECT_EQ(r.message, "job 'minAvailable' should not be greater than total replicas in tasks;");
  EXPECT_EQ(errorsOf(r).back(), (std::pair<std::string, std::string>{"spec.tasks[0].replicas", "'replicas' < 0 in task"}));
}

TEST(SchemaRules, TaskNames) {
  Job j = fixtures::job("job1", {fixtures::task("Bad", 1), fixtures::task(std::string(64, 'a'), 1)});
  AdmissionResult r = validateJobCreate(j, standardConfig());
  Errors errors = errorsOf(r);
  auto has = [&](const std::string& field, const std::string& message) {
    return std::find(errors.begin(), errors.end(), std::make_pair(field, message)) != errors.end();
  };
  EXPECT_TRUE(has("spec.tasks[0].name", "a lowercase RFC 1123 label must consist of lower case alphanumeric characters"));
  // The CRD's own marker on the task name (Pattern), worded as the API server's OpenAPI check words it.
  EXPECT_TRUE(has("spec.tasks[0].name",
                  "Invalid value: \"Bad\": spec.tasks[0].name in body should match '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$'"));
  EXPECT_FALSE(has("spec.tasks[1].name",
                   "Invalid value: \"" + std::string(64, 'a') + "\": spec.tasks[1].name in body should match "
                   "'^[a-z0-9]([-a-z0-9]*[a-z0-9])?$'"));  // too long, but the pattern matches
  EXPECT_TRUE(has("spec.tasks[1].name", "Too long: may not be more than 63 bytes"));
  EXPECT_TRUE(has("spec.tasks[1].name", "a lowercase RFC 1123 label must consist of lower case alphanumeric characters"));
  EXPECT_NE(r.message.find("spec.task[0].metadata.name: Invalid value: \"Bad\""), std::string::npos);  // Kubernetes' own check
}

TEST(SchemaRules, QueueNameAndPartitionTotals) {
  TaskSpec t = fixtures::task("t1", 0);
  t.partitionPolicy = PartitionPolicy{0, 0, std::nullopt, 0};
  Job j = fixtures::job("job1", {t});
  j.spec.queue = "Bad_Q";
  AdmissionConfig config = standardConfig();
  config.queues.push_back(QueueConfig{"Bad_Q", "Open", ""});
  Errors errors = errorsOf(validateJobCreate(j, config));
  ASSERT_GE(errors.size(), 3u);
  EXPECT_EQ(errors[errors.size() - 3],
            (std::pair<std::string, std::string>{"spec.tasks[0].partitionPolicy.totalPartitions",
                                                 "Invalid value: 0: spec.tasks[0].partitionPolicy.totalPartitions in body should "
                                                 "be greater than or equal to 1"}));
  EXPECT_EQ(errors[errors.size() - 2].first, "spec.tasks[0].partitionPolicy.partitionSize");
  EXPECT_EQ(errors.back(), (std::pair<std::string, std::string>{
                               "spec.queue", "Invalid value: \"Bad_Q\": spec.queue in body should match "
                                             "'^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$'"}));
}

}  // namespace
}  // namespace jobhost
