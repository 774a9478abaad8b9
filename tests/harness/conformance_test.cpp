// The conformance suite: shipped plugins pass it, and a deliberately broken fixture fails it with
// a message per broken rule.
#include <gtest/gtest.h>
#include <jobhost/testing/conformance.h>

#include "demo_job.h"

namespace jobhost::testing {
namespace {

TEST(Conformance, EnvAndSvcTogetherPass) {
  Harness h({shipped("env"), shipped("svc")});
  ASSERT_TRUE(h.ok()) << h.loadError();
  EXPECT_TRUE(runConformance(h, kDemoJob));
}

TEST(Conformance, ReportListsTheChecksThatRan) {
  Harness h({shipped("env"), shipped("svc")});
  ASSERT_TRUE(h.ok()) << h.loadError();
  ConformanceReport r = checkConformance(h, kDemoJob);
  EXPECT_TRUE(r.ok()) << ::testing::PrintToString(r.failures);
  EXPECT_EQ(r.checks.front(), "env: unknown flag is an admission error naming plugin and flag");
  EXPECT_EQ(r.checks[1], "svc: unknown flag is an admission error naming plugin and flag");
  EXPECT_EQ(r.checks[2], "OnJobAdd twice is idempotent");
  EXPECT_EQ(r.checks.back(), "svc: a throwing OnJobAdd is reported naming the plugin");
  EXPECT_EQ(r.checks.size(), 19u);
}

TEST(Conformance, AJobThatIsNotAdmittedIsAFailure) {
  Harness h({shipped("env")});
  ConformanceReport r = checkConformance(h, "kind: Job\nmetadata: {name: x}\n");
  ASSERT_EQ(r.failures.size(), 1u);
  EXPECT_EQ(r.failures[0].rfind("the conformance job is not admitted: ", 0), 0u) << r.failures[0];
}

TEST(Conformance, AThrowingPluginFails) {
  PluginSource throwing = sharedObject(JOBHOST_FIXTURE_DIR "/libjobhost_throwing.so");
  throwing.always = true;
  Harness h({shipped("env"), shipped("svc"), throwing});
  ASSERT_TRUE(h.ok()) << h.loadError();
  ConformanceReport r = checkConformance(h, kDemoJob);
  ASSERT_EQ(r.failures.size(), 1u);
  EXPECT_EQ(r.failures[0],
            "the conformance job is not admitted: spec.plugins.throwing: plugin \"throwing\" failed in "
            "Validation: Validate threw an exception: fixture failure in validate");
}

}  // namespace
}  // namespace jobhost::testing
