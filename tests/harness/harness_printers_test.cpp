// Readable failures: JobPhase, PodPhase and FieldError print by name in GoogleTest messages, and a
// Submission describes itself with admission's findings (which `error` alone leaves out).
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>
#include <jobhost/testing/harness.h>

#include "demo_job.h"

namespace jobhost::testing {
namespace {

TEST(HarnessPrinters, PhasesPrintByName) {
  EXPECT_EQ(::testing::PrintToString(JobPhase::Running), "Running");
  EXPECT_EQ(::testing::PrintToString(PodPhase::Failed), "Failed");
  EXPECT_NONFATAL_FAILURE(EXPECT_EQ(JobPhase::Pending, JobPhase::Completed), "Which is: Completed");
}

TEST(HarnessPrinters, FieldErrorsPrintAsFieldAndMessage) {
  const std::vector<FieldError> errors{{"spec.maxRetry", "'maxRetry' cannot be less than zero"}};
  EXPECT_EQ(::testing::PrintToString(errors), "{ spec.maxRetry: 'maxRetry' cannot be less than zero }");
}

constexpr const char* kRejected = R"(
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: bad, namespace: team-a}
spec:
  plugins: {env: ["--nope"]}
  maxRetry: -1
  minAvailable: -1
  tasks: [{name: a, replicas: 1, template: {spec: {containers: [{name: c, image: busybox}]}}}]
)";

TEST(HarnessPrinters, ARejectedSubmissionDescribesItsFindingsAndWarnings) {
  Harness h({shipped("env")});
  ASSERT_TRUE(h.ok()) << h.loadError();
  const Submission s = h.submit(kRejected);
  ASSERT_FALSE(s);
  EXPECT_EQ(s.error, "");
  const std::string expected =
      "not admitted: spec.minAvailable: job 'minAvailable' must be >= 0; spec.maxRetry: 'maxRetry' cannot be "
      "less than zero (warnings: spec.plugins.env: plugin env: flag provided but not defined: -nope (ignored "
      "as on Volcano: flags before it apply, flags after it keep their defaults, and a value that does not "
      "parse is set as Go sets it: 0, false or the bound it passed))";
  EXPECT_EQ(s.describe(), expected);
  EXPECT_EQ(::testing::PrintToString(s), expected);
}

TEST(HarnessPrinters, AnAdmittedAndARefusedSubmissionDescribeThemselves) {
  Harness h({shipped("env"), shipped("svc")});
  ASSERT_TRUE(h.ok()) << h.loadError();
  const Submission first = h.submit(kDemoJob);
  EXPECT_EQ(first.describe(), "admitted");
  const Submission second = h.submit(kDemoJob);
  EXPECT_EQ(second.describe(), "not admitted: jobhost::testing: one job per harness");
}

}  // namespace
}  // namespace jobhost::testing
