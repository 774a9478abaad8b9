// In-process plugins from a class (inProcess<Class, "name">()): loader checks and args, admission
// warnings from submit and admit, and the order every extension point and hook runs in.
#include <gtest/gtest.h>
#include <jobhost/testing/harness.h>

#include <algorithm>

#include "probe_plugins.h"

namespace jobhost::testing {
namespace {

using Strings = std::vector<std::string>;

constexpr const char* kProbeJob = R"(
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: p, namespace: team-a}
spec:
  minAvailable: 2
  plugins: {probe: ["--warn=from the job"]}
  tasks:
    - name: w
      replicas: 2
      template: {spec: {restartPolicy: Never, containers: [{name: main, image: busybox}]}}
)";

TEST(HarnessFactory, AClassLoadsWithTheDescriptorJobhostPluginWouldBuild) {
  Harness h({inProcess<probes::Probe, "probe", "2.1.0">()});
  ASSERT_TRUE(h.ok()) << h.loadError();
  EXPECT_EQ(h.pluginNames(), (Strings{"probe"}));
  const Harness::PluginInfo info = h.pluginInfo("probe");
  EXPECT_EQ(info.name, "probe");
  EXPECT_EQ(info.version, "2.1.0");
  EXPECT_EQ(info.file, "<in-process probe>");
  EXPECT_EQ(info.capabilities,
            kValidation | kMLPolicy | kPodGroupPolicy | kPodNetwork | kComponentBuild | kStatus | kJobHooks);
  EXPECT_THROW(h.pluginInfo("nope"), std::out_of_range);
  EXPECT_THROW(h.plugin("nope"), std::out_of_range);
}

TEST(HarnessFactory, ConfigArgsReachConfigureAndBadOnesFailTheLoad) {
  Harness good({inProcess<probes::Probe, "probe">({"--warn=from the config"})});
  ASSERT_TRUE(good.ok()) << good.loadError();
  Harness bad({inProcess<probes::Probe, "probe">({"--colour=red"})});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.loadError(),
            "<in-process probe>: plugin \"probe\" rejected its config args: plugin probe: flag provided but "
            "not defined: -colour; fix its \"args\" in the config");
}

TEST(HarnessFactory, ConfiguredNameAndAliasesAreUsedForJobs) {
  PluginSource src = inProcess<probes::Probe, "probe">();
  src.aliases = {"prober"};
  Harness h({src});
  ASSERT_TRUE(h.ok()) << h.loadError();
  std::string job = kProbeJob;
  job.replace(job.find("probe:"), 6, "prober:");
  ASSERT_TRUE(h.submit(job));
  EXPECT_EQ(h.pod("p-w-1").env("PROBE"), "1");
}

TEST(HarnessFactory, AdmissionWarningsComeBackFromAdmitAndSubmit) {
  Harness h({inProcess<probes::Probe, "probe">({"--warn=from the config"})});
  ASSERT_TRUE(h.ok()) << h.loadError();
  // The config's default args come first, the job's spec.plugins.probe after: the job's flag wins.
  Submission a = h.admit(kProbeJob);
  EXPECT_TRUE(a);
  EXPECT_TRUE(a.errors.empty());
  EXPECT_EQ(a.warnings, (Strings{"probe: from the job"}));
  Submission s = h.submit(kProbeJob);
  ASSERT_TRUE(s) << s.describe();
  EXPECT_EQ(s.warnings, (Strings{"probe: from the job"}));
  EXPECT_EQ(h.podNames(), (Strings{"p-w-0", "p-w-1"}));
}

TEST(HarnessFactory, WarningsAndErrorsTogether) {
  Harness h({inProcess<probes::Probe, "probe">()});
  std::string job = kProbeJob;
  job.replace(job.find("[\"--warn"), 1, "[\"--nope\", ");
  job.replace(job.find("minAvailable: 2"), 15, "minAvailable: -1");
  Submission s = h.submit(job);
  EXPECT_FALSE(s);
  EXPECT_FALSE(s.admitted);
  ASSERT_EQ(s.errors.size(), 2u) << ::testing::PrintToString(s.warnings);
  EXPECT_EQ(s.errors[0].field, "spec.minAvailable");
  EXPECT_EQ(s.errors[1].field, "spec.plugins.probe");
  EXPECT_EQ(s.errors[1].message, "plugin probe: flag provided but not defined: -nope");
  EXPECT_TRUE(h.podNames().empty());
  EXPECT_THROW(h.job(), std::logic_error);  // nothing was submitted
}

TEST(HarnessFactory, EveryPointAndHookRunsInTheDocumentedOrder) {
  Harness h({inProcess<probes::Probe, "probe">()});
  ASSERT_TRUE(h.ok()) << h.loadError();
  h.scriptDefault(runsFor(5000));
  ASSERT_TRUE(h.submit(kProbeJob));
  const Strings calls = h.hookCalls();
  // Admission, then the pipeline in its fixed order, then the status write of the new Pending job,
  // then OnJobAdd (again on each sync while Pending), then one OnPodCreate per pod, in index order.
  const Strings head(calls.begin(), calls.begin() + std::min<size_t>(calls.size(), 7));
  EXPECT_EQ(head, (Strings{"probe.Validate", "probe.EnforceMLPolicy", "probe.EnforcePodGroupPolicy",
                           "probe.IdentifyPodNetwork", "probe.Build", "probe.UpdateStatus", "probe.OnJobAdd"}));
  auto at = [&](const std::string& c) { return std::find(calls.begin(), calls.end(), c) - calls.begin(); };
  auto count = [](const Strings& c, const std::string& what) { return std::count(c.begin(), c.end(), what); };
  EXPECT_LT(at("probe.OnJobAdd"), at("probe.OnPodCreate p-w-0"));
  EXPECT_LT(at("probe.OnPodCreate p-w-0"), at("probe.OnPodCreate p-w-1"));
  EXPECT_LT(at("probe.OnPodCreate p-w-1"), static_cast<long>(calls.size()));
  EXPECT_EQ(count(calls, "probe.OnPodCreate p-w-0"), 1);
  EXPECT_EQ(count(calls, "probe.OnJobUpdate"), 0);
  EXPECT_EQ(count(calls, "probe.OnJobDelete"), 0);

  h.advance(1000);  // the pods start: OnJobAdd on every sync until the job is Running
  ASSERT_EQ(h.phase(), JobPhase::Running);
  h.clearHookCalls();
  ASSERT_TRUE(h.runUntilFinished(60000));
  EXPECT_EQ(h.phase(), JobPhase::Completed);
  const Strings later = h.hookCalls();
  EXPECT_GE(count(later, "probe.OnJobUpdate"), 1);
  EXPECT_EQ(count(later, "probe.OnJobAdd"), 0);
  EXPECT_GE(count(later, "probe.OnJobDelete"), 1);  // every kill of the completing job
  EXPECT_EQ(count(later, "probe.Validate"), 0);
  EXPECT_EQ(count(later, "probe.Build"), 0);  // the pipeline runs on submit and on spec changes only
  ASSERT_FALSE(later.empty());
  EXPECT_EQ(later.back(), "probe.UpdateStatus");
  EXPECT_EQ(h.job().status.controlledResources.count("plugin-probe"), 0u);
}

TEST(HarnessFactory, RestartCommandsCountRetriesAndRecreatePods) {
  Harness h({inProcess<probes::Probe, "probe">()});
  ASSERT_TRUE(h.submit(kProbeJob));
  h.advance(1000);
  ASSERT_EQ(h.phase(), JobPhase::Running);
  h.command("RestartJob");
  h.advance(2000);
  EXPECT_EQ(h.retryCount(), 1);
  EXPECT_EQ(h.phase(), JobPhase::Running);
  EXPECT_EQ(h.podCreations("p-w-0"), 2);
  EXPECT_EQ(h.pod("p-w-0").env("PROBE"), "0");
  EXPECT_THROW(h.command(""), std::invalid_argument);
}

}  // namespace
}  // namespace jobhost::testing
