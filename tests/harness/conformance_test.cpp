// The conformance suite: shipped plugins pass it, and a deliberately broken fixture fails it with
// a message per broken rule.
#include <gtest/gtest.h>
#include <gtest/gtest-spi.h>
#include <jobhost/testing/conformance.h>

#include <algorithm>

#include "demo_job.h"
#include "probe_plugins.h"

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
  EXPECT_EQ(r.checks.front(), "env: unknown flag is an admission warning naming plugin and flag");
  EXPECT_EQ(r.checks[1], "svc: unknown flag is an admission warning naming plugin and flag");
  EXPECT_EQ(r.checks[2], "OnJobAdd twice is idempotent");
  EXPECT_EQ(r.checks.back(), "svc: a throwing OnJobAdd is reported naming the plugin");
  EXPECT_EQ(r.checks.size(), 19u);
}

TEST(Conformance, AJobThatIsNotAdmittedIsAFailure) {
  Harness h({shipped("env")});
  ConformanceReport r = checkConformance(h, "kind: Job\nmetadata: {name: x}\n");
  ASSERT_EQ(r.failures.size(), 1u);
  EXPECT_EQ(r.failures[0].rfind("the conformance job must pass admission: not admitted: ", 0), 0u) << r.failures[0];
}

TEST(Conformance, AThrowingPluginFails) {
  PluginSource throwing = sharedObject(JOBHOST_FIXTURE_DIR "/libjobhost_throwing.so");
  throwing.always = true;
  Harness h({shipped("env"), shipped("svc"), throwing});
  ASSERT_TRUE(h.ok()) << h.loadError();
  ConformanceReport r = checkConformance(h, kDemoJob);
  ASSERT_EQ(r.failures.size(), 1u);
  EXPECT_EQ(r.failures[0],
            "the conformance job must pass admission: not admitted: spec.plugins.throwing: plugin \"throwing\" failed in "
            "Validation: Validate threw an exception: fixture failure in validate");
}

// --- each broken rule is reported, and only that rule (sloppy plugins, probe_plugins.h) ---

constexpr const char* kSloppyJob = R"(
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: demo, namespace: team-a}
spec:
  minAvailable: 2
  plugins: {sloppy: []}
  tasks:
    - name: worker
      replicas: 2
      template: {spec: {restartPolicy: Never, containers: [{name: main, image: busybox}]}}
)";

// The failures of the suite on `source`, each cut to its check name (the text before ": ").
std::vector<std::string> failedChecks(PluginSource source, std::vector<std::string>* full = nullptr,
                                      std::string job = kSloppyJob) {
  Harness h({source});
  EXPECT_TRUE(h.ok()) << h.loadError();
  ConformanceReport r = checkConformance(h, job);
  EXPECT_FALSE(r.checks.empty());
  std::vector<std::string> names;
  for (const auto& f : r.failures) {
    std::string check = f;
    for (const auto& c : r.checks)
      if (f.rfind(c + ": ", 0) == 0) check = c;
    names.push_back(check);
  }
  if (full) *full = r.failures;
  return names;
}

using Strings = std::vector<std::string>;
using probes::Flaw;
using probes::Sloppy;

TEST(ConformanceCatches, NothingWhenThePluginIsCorrect) {
  Strings failures;
  EXPECT_EQ(failedChecks(inProcess<Sloppy<Flaw::Correct>, "sloppy">(), &failures), Strings{})
      << ::testing::PrintToString(failures);
}

TEST(ConformanceCatches, APluginWithoutValidationLeavesUnknownFlagsUnreported) {
  Strings failures;
  EXPECT_EQ(failedChecks(inProcess<Sloppy<Flaw::NoValidation>, "sloppy">(), &failures),
            (Strings{"sloppy: unknown flag is an admission warning naming plugin and flag"}));
  EXPECT_EQ(failures.at(0),
            "sloppy: unknown flag is an admission warning naming plugin and flag: the plugin implements no "
            "Validation, so its flags go unchecked");
}

TEST(ConformanceCatches, AValidationThatIgnoresUnknownFlagsSilently) {
  Strings failures;
  EXPECT_EQ(failedChecks(inProcess<Sloppy<Flaw::LenientFlags>, "sloppy">(), &failures),
            (Strings{"sloppy: unknown flag is an admission warning naming plugin and flag"}));
  EXPECT_EQ(failures.at(0),
            "sloppy: unknown flag is an admission warning naming plugin and flag: admission did not warn about "
            "-jobhost-conformance-unknown-flag");
}

TEST(ConformanceCatches, AValidationThatRejectsJobsVolcanoWouldRun) {
  Strings failures;
  EXPECT_EQ(failedChecks(inProcess<Sloppy<Flaw::StrictFlags>, "sloppy">(), &failures),
            (Strings{"sloppy: unknown flag is an admission warning naming plugin and flag"}));
  EXPECT_EQ(failures.at(0),
            "sloppy: unknown flag is an admission warning naming plugin and flag: admission rejected the job "
            "(Volcano runs it: report the flag with ignoredFlagWarning)");
}

TEST(ConformanceCatches, OnJobAddThatChangesStateEveryTime) {
  Strings failures;
  const Strings names = failedChecks(inProcess<Sloppy<Flaw::AddNotIdempotent>, "sloppy">(), &failures);
  ASSERT_FALSE(names.empty());
  EXPECT_EQ(names[0], "OnJobAdd twice is idempotent");
  EXPECT_NE(failures[0].find("once: controlledResources { plugin-sloppy=sloppy sloppy-adds=1 }"), std::string::npos)
      << failures[0];
  EXPECT_NE(failures[0].find("twice: controlledResources { plugin-sloppy=sloppy sloppy-adds=2 }"), std::string::npos)
      << failures[0];
}

TEST(ConformanceCatches, OnPodCreateThatAppendsInsteadOfUpserting) {
  Strings failures;
  const Strings names = failedChecks(inProcess<Sloppy<Flaw::PodNotIdempotent>, "sloppy">(), &failures);
  EXPECT_EQ(names, (Strings{"OnPodCreate twice is idempotent (demo-worker-0)",
                            "OnPodCreate twice is idempotent (demo-worker-1)"}));
  EXPECT_EQ(failures.at(0),
            "OnPodCreate twice is idempotent (demo-worker-0): the pod changed when OnPodCreate ran again on it");
}

TEST(ConformanceCatches, OnJobDeleteThatDoesNotUndoOnJobAdd) {
  Strings failures;
  EXPECT_EQ(failedChecks(inProcess<Sloppy<Flaw::NoUndo>, "sloppy">(), &failures),
            (Strings{"OnJobDelete undoes OnJobAdd"}));
  EXPECT_EQ(failures.at(0),
            "OnJobDelete undoes OnJobAdd: after OnJobAdd: controlledResources { plugin-sloppy=sloppy }, objects { "
            "ConfigMap demo-sloppy }; after OnJobDelete: controlledResources { plugin-sloppy=sloppy }, objects "
            "{ ConfigMap demo-sloppy }");
}

TEST(ConformanceCatches, ExceptionsThatEscapeAPluginBuiltWithoutTheBarrier) {
  Strings failures;
  std::string job = kSloppyJob;
  job.replace(job.find("sloppy"), 6, "unguarded");
  const Strings names = failedChecks(inProcess(&probes::unguardedEntry), &failures, job);
  EXPECT_EQ(names, (Strings{"unguarded: unknown flag is an admission warning naming plugin and flag",
                            "unguarded: OnJobAdd with a throwing host service is contained",
                            "unguarded: OnPodCreate with a throwing host service is contained",
                            "unguarded: OnJobUpdate with a throwing host service is contained",
                            "unguarded: OnJobDelete with a throwing host service is contained"}))
      << ::testing::PrintToString(failures);
  EXPECT_EQ(failures.at(1),
            "unguarded: OnJobAdd with a throwing host service is contained: an exception escaped the plugin: "
            "conformance: host service unavailable (build it with JOBHOST_PLUGIN)");
}

TEST(ConformanceCatches, RunConformanceTurnsEachFailureIntoAGoogleTestFailure) {
  Harness h({inProcess<Sloppy<Flaw::NoUndo>, "sloppy">()});
  ASSERT_TRUE(h.ok()) << h.loadError();
  bool ok = true;
  EXPECT_NONFATAL_FAILURE(ok = runConformance(h, kSloppyJob), "conformance: OnJobDelete undoes OnJobAdd");
  EXPECT_FALSE(ok);
}

TEST(ConformanceCatches, RunConformanceFailuresPointAtTheCallersLine) {
  Harness h({inProcess<Sloppy<Flaw::NoUndo>, "sloppy">()});
  ASSERT_TRUE(h.ok()) << h.loadError();
  ::testing::TestPartResultArray failures;
  int callLine = 0;
  {
    ::testing::ScopedFakeTestPartResultReporter intercept(
        ::testing::ScopedFakeTestPartResultReporter::INTERCEPT_ONLY_CURRENT_THREAD, &failures);
    callLine = __LINE__ + 1;
    runConformance(h, kSloppyJob);
  }
  ASSERT_EQ(failures.size(), 1);
  EXPECT_STREQ(failures.GetTestPartResult(0).file_name(), __FILE__);
  EXPECT_EQ(failures.GetTestPartResult(0).line_number(), callLine);
}

}  // namespace
}  // namespace jobhost::testing
