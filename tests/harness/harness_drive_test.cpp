// Harness driving: a job's pods and objects on the sim cluster, the hooks in order, pods that
// exit or get evicted under virtual time, commands, and a host-side injected throw.
#include <gtest/gtest.h>
#include <jobhost/testing/harness.h>

#include "demo_job.h"

namespace jobhost::testing {
namespace {

using Strings = std::vector<std::string>;

class HarnessDrive : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(h_.ok()) << h_.loadError(); }
  Harness h_{{shipped("env"), shipped("svc")}};
};

TEST_F(HarnessDrive, AdmissionErrorsAndWarningsComeBack) {
  Submission s = h_.admit(R"(
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: bad, namespace: team-a}
spec:
  plugins: {env: ["--nope"]}
  maxRetry: -1
  tasks: [{name: a, replicas: 1, template: {spec: {containers: [{name: c, image: busybox}]}}}]
)");
  EXPECT_FALSE(s.admitted);
  ASSERT_EQ(s.errors.size(), 1u);
  EXPECT_EQ(s.errors[0].field, "spec.maxRetry");
  EXPECT_EQ(s.errors[0].message, "'maxRetry' cannot be less than zero");
  EXPECT_EQ(s.warnings, Strings{"spec.plugins.env: plugin env: flag provided but not defined: -nope (ignored as on Volcano: flags before it apply, flags after it keep "
                                "their defaults, and a value that does not parse is set as Go sets it: "
                                "0, false or the bound it passed)"});
}

TEST_F(HarnessDrive, PodsCarryThePluginsEnvVolumesMountsAndLabels) {
  ASSERT_TRUE(h_.submit(kDemoJob));
  EXPECT_EQ(h_.podNames(), (Strings{"demo-ps-0", "demo-worker-0", "demo-worker-1"}));
  PodView w1 = h_.pod("demo-worker-1");
  EXPECT_EQ(w1.env("VK_TASK_INDEX"), "1");
  EXPECT_EQ(w1.env("VC_TASK_INDEX"), "1");
  EXPECT_EQ(w1.env("NOT_SET"), std::nullopt);
  EXPECT_EQ(w1.envList(), (Strings{"VK_TASK_INDEX=1", "VC_TASK_INDEX=1", "VC_PS_HOSTS<-configMap:demo-svc/VC_PS_HOSTS", "VC_PS_NUM<-configMap:demo-svc/VC_PS_NUM",
                                   "VC_WORKER_HOSTS<-configMap:demo-svc/VC_WORKER_HOSTS",
                                   "VC_WORKER_NUM<-configMap:demo-svc/VC_WORKER_NUM"}));
  EXPECT_EQ(w1.pod().spec.hostname, "demo-worker-1");
  EXPECT_EQ(w1.pod().spec.subdomain, "demo");
  ASSERT_NE(w1.volume("demo-svc"), nullptr);
  EXPECT_EQ(w1.volume("demo-svc")->configMap->name, "demo-svc");
  ASSERT_NE(w1.mount("/etc/volcano"), nullptr);
  EXPECT_EQ(w1.mount("/etc/volcano")->name, "demo-svc");
  ASSERT_NE(w1.port("tf"), nullptr);
  EXPECT_EQ(w1.port("tf")->containerPort, 2222);
  EXPECT_EQ(w1.label("volcano.sh/task-spec"), "worker");
  EXPECT_EQ(w1.annotation("volcano.sh/task-index"), "1");
  EXPECT_THROW(h_.pod("demo-chief-0"), std::out_of_range);
  EXPECT_THROW(w1.container("sidecar"), std::out_of_range);
}

// On a temporary PodView the lookups return copies: a pointer into the view would dangle.
TEST_F(HarnessDrive, LookupsOnATemporaryPodViewReturnCopies) {
  static_assert(std::is_same_v<decltype(std::declval<PodView>().mount("")), std::optional<VolumeMount>>);
  static_assert(std::is_same_v<decltype(std::declval<const PodView&>().mount("")), const VolumeMount*>);
  ASSERT_TRUE(h_.submit(kDemoJob));
  const std::optional<VolumeMount> mount = h_.pod("demo-worker-1").mount("/etc/volcano");
  ASSERT_TRUE(mount);
  EXPECT_EQ(mount->name, "demo-svc");
  const std::optional<Volume> volume = h_.pod("demo-worker-1").volume("demo-svc");
  ASSERT_TRUE(volume);
  EXPECT_EQ(volume->configMap->name, "demo-svc");
  const std::optional<ContainerPort> port = h_.pod("demo-worker-1").port("tf");
  ASSERT_TRUE(port);
  EXPECT_EQ(port->containerPort, 2222);
  EXPECT_FALSE(h_.pod("demo-ps-0").port("tf"));
  EXPECT_FALSE(h_.pod("demo-ps-0").mount("/nowhere"));
  EXPECT_FALSE(h_.pod("demo-ps-0").volume("nothing"));
}

TEST_F(HarnessDrive, BuiltResourcesAndPodGroupAreListed) {
  ASSERT_TRUE(h_.submit(kDemoJob));
  Components r = h_.resources();
  ASSERT_EQ(r.configMaps.size(), 1u);
  EXPECT_EQ(r.configMaps[0].metadata.name, "demo-svc");
  EXPECT_EQ(h_.configMap("demo-svc").data.at("worker.host"), "demo-worker-0.demo\ndemo-worker-1.demo");
  EXPECT_EQ(h_.configMap("demo-svc").data.at("VC_WORKER_NUM"), "2");
  ASSERT_EQ(r.services.size(), 1u);
  EXPECT_EQ(h_.service("demo").spec.clusterIP, "None");
  ASSERT_EQ(r.networkPolicies.size(), 1u);
  EXPECT_TRUE(r.secrets.empty());
  EXPECT_THROW(h_.secret("demo-ssh"), std::out_of_range);
  ASSERT_TRUE(h_.podGroup());
  EXPECT_EQ(h_.podGroup()->spec.minMember, 3);
}

TEST_F(HarnessDrive, HooksAreRecordedInOrder) {
  ASSERT_TRUE(h_.submit(kDemoJob));
  const Strings calls = h_.hookCalls();
  const Strings head(calls.begin(), calls.begin() + 4);
  EXPECT_EQ(head, (Strings{"env.Validate", "svc.Validate", "svc.IdentifyPodNetwork", "svc.Build"}));
  auto at = [&](const std::string& c) { return std::find(calls.begin(), calls.end(), c) - calls.begin(); };
  EXPECT_LT(at("env.OnJobAdd"), at("svc.OnJobAdd"));
  EXPECT_LT(at("svc.OnJobAdd"), at("env.OnPodCreate demo-ps-0"));
  EXPECT_LT(at("env.OnPodCreate demo-ps-0"), at("svc.OnPodCreate demo-ps-0"));
  EXPECT_LT(at("svc.OnPodCreate demo-worker-1"), static_cast<long>(calls.size()));
}

TEST_F(HarnessDrive, PodsRunAndExitUnderVirtualTime) {
  h_.scriptDefault(runsFor(10000));
  ASSERT_TRUE(h_.submit(kDemoJob));
  EXPECT_EQ(h_.phase(), JobPhase::Pending);
  h_.advance(1000);
  EXPECT_EQ(h_.phase(), JobPhase::Running);
  EXPECT_EQ(h_.pod("demo-ps-0").phase(), PodPhase::Running);
  ASSERT_TRUE(h_.runUntilFinished(60000));
  EXPECT_EQ(h_.phase(), JobPhase::Completed);
  EXPECT_EQ(h_.now(), 11000);
  EXPECT_EQ(h_.pod("demo-worker-0").phase(), PodPhase::Succeeded);
}

TEST_F(HarnessDrive, EvictionRestartsTheJobAndCountsARetry) {
  ASSERT_TRUE(h_.submit(kDemoJob));
  h_.advance(1000);
  ASSERT_EQ(h_.phase(), JobPhase::Running);
  h_.clearHookCalls();
  h_.evict("demo-worker-0");
  h_.advance(5000);
  EXPECT_EQ(h_.retryCount(), 1);
  EXPECT_EQ(h_.phase(), JobPhase::Running);
  EXPECT_EQ(h_.podCreations("demo-worker-0"), 2);
  const Strings calls = h_.hookCalls();
  EXPECT_NE(std::find(calls.begin(), calls.end(), "svc.OnJobDelete"), calls.end());
}

TEST_F(HarnessDrive, ExitCodeFailsThePodAndCommandsAbortTheJob) {
  h_.scriptPod("demo-worker-1", {runsFor(2000, 137)});
  ASSERT_TRUE(h_.submit(kDemoJob));
  h_.advance(3000);
  EXPECT_EQ(h_.pod("demo-worker-1").phase(), PodPhase::Failed);
  EXPECT_EQ(h_.pod("demo-worker-1").pod().status.containerStatuses.at(0).terminated->exitCode, 137);
  h_.command("AbortJob");
  h_.advance(1000);
  EXPECT_EQ(h_.phase(), JobPhase::Aborted);
}

TEST_F(HarnessDrive, AThrowingHookIsContainedAndReportedNamingThePlugin) {
  h_.injectThrow("svc", "OnJobAdd", "boom");
  ASSERT_TRUE(h_.submit(kDemoJob));
  const Strings errors = h_.syncErrors();
  ASSERT_FALSE(errors.empty());
  EXPECT_EQ(errors[0], "PluginError: plugin \"svc\" failed in OnJobAdd: threw an exception: boom");
  EXPECT_TRUE(h_.podNames().empty());
  h_.injectThrow("svc", "");
  h_.advance(1000);
  EXPECT_EQ(h_.podNames(), (Strings{"demo-ps-0", "demo-worker-0", "demo-worker-1"}));
}

}  // namespace
}  // namespace jobhost::testing
