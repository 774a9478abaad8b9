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

TEST(Conformance, ReportListsTheChecksThatRanEachNamingItsPlugin) {
  Harness h({shipped("env"), shipped("svc")});
  ASSERT_TRUE(h.ok()) << h.loadError();
  ConformanceReport r = checkConformance(h, kDemoJob);
  EXPECT_TRUE(r.ok()) << ::testing::PrintToString(r.failures);
  std::vector<std::string> expected;
  auto forBoth = [&](const std::string& check) {
    for (const char* plugin : {"env", "svc"}) expected.push_back(plugin + (": " + check));
  };
  forBoth("unknown flag is an admission warning naming plugin and flag");
  forBoth("OnJobAdd twice is idempotent");
  for (const char* pod : {"demo-ps-0", "demo-worker-0", "demo-worker-1"})
    forBoth(std::string("OnPodCreate twice is idempotent (") + pod + ")");
  forBoth("OnJobUpdate twice is idempotent");
  forBoth("OnJobDelete twice is idempotent");
  forBoth("OnJobDelete undoes OnJobAdd");
  for (const char* plugin : {"env", "svc"}) {
    for (const char* hook : {"OnJobAdd", "OnPodCreate", "OnJobUpdate", "OnJobDelete"})
      expected.push_back(std::string(plugin) + ": " + hook + " with a throwing host service is contained");
    expected.push_back(std::string(plugin) + ": a throwing OnJobAdd is reported naming the plugin");
  }
  EXPECT_EQ(r.checks, expected);
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
            "Validation, so its flags go unchecked (implement ValidationPlugin and warn with ignoredFlagWarning)");
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
  EXPECT_EQ(failedChecks(inProcess<Sloppy<Flaw::AddNotIdempotent>, "sloppy">(), &failures),
            (Strings{"sloppy: OnJobAdd twice is idempotent", "sloppy: OnJobDelete undoes OnJobAdd"}));
  EXPECT_EQ(failures.at(0),
            "sloppy: OnJobAdd twice is idempotent: the second call changed controlledResources[sloppy-adds]: 1 -> 2");
  EXPECT_EQ(failures.at(1),
            "sloppy: OnJobDelete undoes OnJobAdd: still changed after OnJobDelete: controlledResources[sloppy-adds]: "
            "(unset) -> 2");
}

TEST(ConformanceCatches, OnPodCreateThatAppendsInsteadOfUpsertingShowsTheEnvBeforeAndAfter) {
  Strings failures;
  const Strings names = failedChecks(inProcess<Sloppy<Flaw::PodNotIdempotent>, "sloppy">(), &failures);
  EXPECT_EQ(names, (Strings{"sloppy: OnPodCreate twice is idempotent (demo-worker-0)",
                            "sloppy: OnPodCreate twice is idempotent (demo-worker-1)"}));
  EXPECT_EQ(failures.at(0),
            "sloppy: OnPodCreate twice is idempotent (demo-worker-0): running it again on its own output changed "
            "container main env: [SLOPPY=1] -> [SLOPPY=1, SLOPPY=1]");
}

TEST(ConformanceCatches, OnJobDeleteThatDoesNotUndoOnJobAdd) {
  Strings failures;
  EXPECT_EQ(failedChecks(inProcess<Sloppy<Flaw::NoUndo>, "sloppy">(), &failures),
            (Strings{"sloppy: OnJobDelete undoes OnJobAdd"}));
  EXPECT_EQ(failures.at(0),
            "sloppy: OnJobDelete undoes OnJobAdd: still changed after OnJobDelete: ConfigMap demo-sloppy: created; "
            "controlledResources[plugin-sloppy]: (unset) -> sloppy");
}

// With a correct plugin beside it (env, before it in config order), every failure of the shared
// hook checks names the sloppy plugin and none names env.
class ConformanceBesideAnotherPlugin : public ::testing::TestWithParam<PluginSource> {};

TEST_P(ConformanceBesideAnotherPlugin, OnlyTheSloppyPluginIsNamed) {
  std::string job = kSloppyJob;
  job.replace(job.find("{sloppy: []}"), 12, "{env: [], sloppy: []}");
  Harness h({shipped("env"), GetParam()});
  ASSERT_TRUE(h.ok()) << h.loadError();
  ConformanceReport r = checkConformance(h, job);
  EXPECT_FALSE(r.failures.empty());
  for (const auto& f : r.failures) EXPECT_EQ(f.rfind("sloppy: ", 0), 0u) << f;
}

INSTANTIATE_TEST_SUITE_P(Flaws, ConformanceBesideAnotherPlugin,
                         ::testing::Values(inProcess<Sloppy<Flaw::AddNotIdempotent>, "sloppy">(),
                                           inProcess<Sloppy<Flaw::PodNotIdempotent>, "sloppy">(),
                                           inProcess<Sloppy<Flaw::NoUndo>, "sloppy">()));

TEST(ConformanceAttribution, TheUndoFailureListsOnlyWhatTheSloppyPluginLeft) {
  std::string job = kSloppyJob;
  job.replace(job.find("{sloppy: []}"), 12, "{env: [], sloppy: []}");
  Harness h({shipped("env"), inProcess<Sloppy<Flaw::NoUndo>, "sloppy">()});
  ASSERT_TRUE(h.ok()) << h.loadError();
  EXPECT_EQ(checkConformance(h, job).failures,
            (Strings{"sloppy: OnJobDelete undoes OnJobAdd: still changed after OnJobDelete: ConfigMap demo-sloppy: "
                     "created; controlledResources[plugin-sloppy]: (unset) -> sloppy"}));
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
  EXPECT_NONFATAL_FAILURE(ok = runConformance(h, kSloppyJob), "conformance: sloppy: OnJobDelete undoes OnJobAdd");
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
