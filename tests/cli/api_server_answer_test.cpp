// validate's "on Volcano" line when the API server refuses a job before Volcano's webhook runs:
// kubectl's answer to the 422 Invalid (name, CRD schema), and no line for strict-decoding or VAP refusals.
#include <gtest/gtest.h>

#include "tests/cli/cli_test_util.h"

namespace jobhost::cli {
namespace {

std::string jobFile(const std::string& file, const std::string& name, const std::string& spec,
                    const std::string& task) {
  return writeTemp(file, "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata:\n  name: " + name + "\nspec:\n" +
                             spec + "  tasks:\n    - name: worker\n      replicas: 2\n" + task +
                             "      template: {spec: {containers: [{name: main, image: busybox}]}}\n");
}

const std::string kPartitionRule =
    "spec.tasks[0].partitionPolicy.partitionSize: Invalid value: -1: spec.tasks[0].partitionPolicy.partitionSize in "
    "body should be greater than or equal to 1";

TEST(ApiServerAnswer, ACrdSchemaErrorIsKubectlsInvalidLineNotTheWebhooks) {
  auto file = jobFile("partition-size.yaml", "part", "", "      partitionPolicy: {totalPartitions: 2, partitionSize: -1}\n");
  auto r = run({"validate", file});
  EXPECT_EQ(r.rc, kRejected) << r.out;
  EXPECT_EQ(r.out, file + ": job default/part: rejected (2 errors)\n" +  //
                       file + ":9:60: spec.tasks[0].partitionPolicy.partitionSize: 'PartitionSize' must be greater "
                              "than 0 in task: worker, job: part\n" +
                       file + ":9:60: " + kPartitionRule + "\n" +  //
                       file + ": on Volcano: The Job \"part\" is invalid: " + kPartitionRule + "\n");
}

TEST(ApiServerAnswer, SeveralCausesAreListedOnePerLineAndTheVapsAreNotAmongThem) {
  auto file = writeTemp("upper-task.yaml", R"(apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata:
  name: upper
spec:
  queue: Bad_Queue
  tasks:
    - name: Worker
      replicas: 2
      template: {spec: {containers: [{name: main, image: busybox}]}}
)");
  auto r = run({"validate", file});
  EXPECT_EQ(r.rc, kRejected) << r.out;
  const std::string taskPattern =
      "spec.tasks[0].name: Invalid value: \"Worker\": spec.tasks[0].name in body should match "
      "'^[a-z0-9]([-a-z0-9]*[a-z0-9])?$'";
  const std::string queuePattern =
      "spec.queue: Invalid value: \"Bad_Queue\": spec.queue in body should match "
      "'^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$'";
  // The VAP's task-name message is listed as a finding, but the VAP runs after the 422 and so is no cause.
  EXPECT_TRUE(contains(r.out, file + ":8:13: spec.tasks[0].name: a lowercase RFC 1123 label must consist of lower "
                                     "case alphanumeric characters\n"))
      << r.out;
  const std::string answer =
      file + ": on Volcano: The Job \"upper\" is invalid:\n* " + taskPattern + "\n* " + queuePattern + "\n";
  ASSERT_GE(r.out.size(), answer.size());
  EXPECT_EQ(r.out.substr(r.out.size() - answer.size()), answer) << r.out;
  EXPECT_FALSE(contains(r.out, "admission webhook")) << r.out;
}

TEST(ApiServerAnswer, AValidatingAdmissionPolicyRefusalPrintsNoOnVolcanoLine) {
  auto r = run({"validate", jobFile("vap.yaml", "vap", "  maxRetry: -1\n", "      minAvailable: 3\n")});
  EXPECT_EQ(r.rc, kRejected) << r.out;
  EXPECT_TRUE(contains(r.out, "spec.maxRetry: 'maxRetry' cannot be less than zero\n")) << r.out;
  // The webhook's own errors are still listed, but the VAP refuses the job before the webhook runs.
  EXPECT_TRUE(contains(r.out, "spec.tasks[0].minAvailable: 'minAvailable' is greater than 'replicas'")) << r.out;
  EXPECT_FALSE(contains(r.out, "on Volcano")) << r.out;
}

TEST(ApiServerAnswer, AnUndeclaredFieldPrintsNoOnVolcanoLineEvenWithSchemaErrors) {
  auto file = jobFile("undeclared.yaml", "Undeclared", "  foo: 1\n",
                      "      partitionPolicy: {totalPartitions: 2, partitionSize: -1}\n");
  auto r = run({"validate", file});
  EXPECT_EQ(r.rc, kRejected) << r.out;
  EXPECT_TRUE(contains(r.out, file + ":6:8: spec.foo: unknown field \"spec.foo\"\n")) << r.out;
  EXPECT_TRUE(contains(r.out, kPartitionRule)) << r.out;
  EXPECT_FALSE(contains(r.out, "on Volcano")) << r.out;  // strict decoding refuses it before validation
}

TEST(ApiServerAnswer, AJobOnlyTheWebhookRejectsKeepsTheWebhooksLine) {
  auto file = jobFile("webhook-only.yaml", "hook", "", "      minAvailable: 3\n");
  auto r = run({"validate", file});
  EXPECT_EQ(r.rc, kRejected) << r.out;
  EXPECT_TRUE(contains(r.out, file + ": on Volcano: admission webhook \"validatejob.volcano.sh\" denied the request: "
                                     "'minAvailable' is greater than 'replicas' in task: worker, job: hook; job "
                                     "'minAvailable' should not be greater than total replicas in tasks;\n"))
      << r.out;
}

// A value of the wrong JSON type is a cause of the 422 Invalid, listed with every other one; the
// webhook never sees such a job, so nothing else is reported (the fields would only look unset).
TEST(ApiServerAnswer, WrongTypesAreTheCrdSchemasTypeErrors) {
  auto file = jobFile("types.yaml", "types", "  plugins:\n    ringsconfigmap: {}\n", "      maxRetry: \"3\"\n");
  auto r = run({"validate", file});
  EXPECT_EQ(r.rc, kRejected) << r.out;
  const std::string plugins =
      "spec.plugins.ringsconfigmap: Invalid value: \"object\": spec.plugins.ringsconfigmap in body must be of type "
      "array: \"object\"";
  const std::string maxRetry =
      "spec.tasks[0].maxRetry: Invalid value: \"string\": spec.tasks[0].maxRetry in body must be of type integer: "
      "\"string\"";
  EXPECT_EQ(r.out, file + ": job default/types: rejected (2 errors)\n" +  //
                       file + ":7:21: " + plugins + "\n" + file + ":11:17: " + maxRetry + "\n" +  //
                       file + ": on Volcano: The Job \"types\" is invalid:\n* " + plugins + "\n* " + maxRetry + "\n");
}

TEST(ApiServerAnswer, AnUndeclaredKeyInAPolicyIsStrictDecodingsFinding) {
  auto file = jobFile("policy-key.yaml", "policy-key", "  policies:\n    - {evnt: PodFailed, action: RestartJob}\n", "");
  auto r = run({"validate", file});
  EXPECT_EQ(r.rc, kRejected) << r.out;
  EXPECT_EQ(r.out, file + ": job default/policy-key: rejected (1 error)\n" + file +
                       ":7:14: spec.policies[0].evnt: unknown field \"spec.policies[0].evnt\"\n");
}

}  // namespace
}  // namespace jobhost::cli
