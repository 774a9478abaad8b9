// Tests of the coscheduling plugin's real .so: scheduleTimeoutSeconds on the PodGroup and the
// scheduling.x-k8s.io/pod-group label (both flag spellings), hooks and marker, validation.
#include <gtest/gtest.h>

#include <jobhost/testing/testing.h>

namespace jobhost::testing {
namespace {

class CoschedulingPluginTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(h_.ok()) << h_.loadError();
    plugin_ = &h_.plugin("coscheduling");
  }
  RuntimeInfo enforced(const PluginArgs& args) {
    RuntimeInfo info = runtimeInfo(job_);
    EXPECT_TRUE(plugin_->podGroupPolicy()->enforcePodGroupPolicy(info, args));
    return info;
  }
  ValidationResult validate(const PluginArgs& args) {
    ValidationResult out;
    EXPECT_TRUE(plugin_->validation()->validate(job_, nullptr, args, out));
    return out;
  }

  Harness h_{{shipped("coscheduling")}};
  PluginInstance* plugin_ = nullptr;
  Job job_ = job("demo", {task("master", 1), task("worker", 2)}, {{"coscheduling", {}}});
  FakeResourceClient client_;
};

TEST_F(CoschedulingPluginTest, ReportsItsPoints) {
  EXPECT_EQ(h_.capabilities("coscheduling"), kValidation | kPodGroupPolicy | kJobHooks);
}

TEST_F(CoschedulingPluginTest, DefaultsTheGangTimeoutTo60AndLabelsPodsWithTheJobName) {
  const RuntimeInfo info = enforced({});
  EXPECT_EQ(info.podGroup.spec.scheduleTimeoutSeconds, std::optional<int32_t>(60));
  EXPECT_EQ(info.scheduler.podLabels, (StringMap{{"scheduling.x-k8s.io/pod-group", "demo"}}));
}

TEST_F(CoschedulingPluginTest, BothFlagSpellingsSetTheTimeout) {
  EXPECT_EQ(enforced({"--scheduleTimeoutSeconds=120"}).podGroup.spec.scheduleTimeoutSeconds,
            std::optional<int32_t>(120));
  EXPECT_EQ(enforced({"-schedule-timeout-seconds", "30"}).podGroup.spec.scheduleTimeoutSeconds,
            std::optional<int32_t>(30));
}

TEST_F(CoschedulingPluginTest, HooksKeepTheMarkerAndLabelPods) {
  const RuntimeInfo info = runtimeInfo(job_);
  FakeJobContext ctx(job_, info, client_, {});
  ASSERT_TRUE(plugin_->jobHooks()->onJobAdd(ctx));
  ASSERT_TRUE(plugin_->jobHooks()->onJobAdd(ctx));
  EXPECT_EQ(job_.status.controlledResources,
            (std::map<std::string, std::string>{{"plugin-coscheduling", "coscheduling"}}));
  Pod p = pod(job_, "worker", 1);
  ASSERT_TRUE(plugin_->jobHooks()->onPodCreate(ctx, p));
  const Pod once = p;
  ASSERT_TRUE(plugin_->jobHooks()->onPodCreate(ctx, p));
  EXPECT_EQ(p, once);
  EXPECT_EQ(p.metadata.labels.at("scheduling.x-k8s.io/pod-group"), "demo");
  ASSERT_TRUE(plugin_->jobHooks()->onJobUpdate(ctx));
  ASSERT_TRUE(plugin_->jobHooks()->onJobDelete(ctx));
  ASSERT_TRUE(plugin_->jobHooks()->onJobDelete(ctx));
  EXPECT_TRUE(job_.status.controlledResources.empty());
  EXPECT_TRUE(client_.calls.empty());
}

TEST_F(CoschedulingPluginTest, BadValuesAreAdmissionWarningsNamingPluginAndFlag) {
  auto onlyWarning = [](const ValidationResult& r) {
    EXPECT_TRUE(r.errors.empty());
    return r.warnings.size() == 1 ? r.warnings[0].substr(0, r.warnings[0].find(" (ignored")) : "";
  };
  EXPECT_EQ(onlyWarning(validate({"--scheduleTimeoutSeconds=-5"})),
            "spec.plugins.coscheduling: plugin coscheduling: invalid value \"-5\" for flag -scheduleTimeoutSeconds: "
            "must not be negative");
  EXPECT_EQ(onlyWarning(validate({"--scheduleTimeoutSeconds=5", "--schedule-timeout-seconds", "-5"})),
            "spec.plugins.coscheduling: plugin coscheduling: invalid value \"-5\" for flag -schedule-timeout-seconds: "
            "must not be negative");
  EXPECT_EQ(onlyWarning(validate({"--schedule-timeout-seconds=soon"})),
            "spec.plugins.coscheduling: plugin coscheduling: invalid value \"soon\" for flag "
            "-schedule-timeout-seconds: parse error");
  const ValidationResult good = validate({"--scheduleTimeoutSeconds=0"});
  EXPECT_TRUE(good.errors.empty());
  EXPECT_TRUE(good.warnings.empty());
}

// End to end through the production loader and the sim cluster: every pod of a multi-task job
// (dashed names, a template hostname, a zero-replica task) carries the pod-group label, the job's
// PodGroup carries the default timeout, and aborting the job removes the marker.
TEST(CoschedulingPluginJob, EveryPodIsLabelledAndThePodGroupGetsTheDefaultTimeout) {
  Harness h({shipped("coscheduling")});
  ASSERT_TRUE(h.ok()) << h.loadError();
  ASSERT_TRUE(h.submit(R"(
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: demo, namespace: team-a}
spec:
  plugins: {coscheduling: []}
  tasks:
    - name: ps-main
      replicas: 2
      template: {spec: {restartPolicy: Never, containers: [{name: main, image: busybox}]}}
    - name: fixed
      replicas: 1
      template: {spec: {hostname: fixed-host, restartPolicy: Never, containers: [{name: main, image: busybox}]}}
    - name: idle
      replicas: 0
      template: {spec: {restartPolicy: Never, containers: [{name: main, image: busybox}]}}
)"));
  ASSERT_TRUE(h.podGroup());
  EXPECT_EQ(h.podGroup()->spec.scheduleTimeoutSeconds, std::optional<int32_t>(60));
  EXPECT_EQ(h.podNames(), (std::vector<std::string>{"demo-fixed-0", "demo-ps-main-0", "demo-ps-main-1"}));
  for (const auto& name : h.podNames())
    EXPECT_EQ(h.pod(name).label("scheduling.x-k8s.io/pod-group"), "demo") << name;
  EXPECT_EQ(h.job().status.controlledResources.at("plugin-coscheduling"), "coscheduling");

  h.command("AbortJob");
  h.advance(1000);
  EXPECT_EQ(h.phase(), JobPhase::Aborted);
  EXPECT_EQ(h.job().status.controlledResources.count("plugin-coscheduling"), 0u);
}

}  // namespace
}  // namespace jobhost::testing
