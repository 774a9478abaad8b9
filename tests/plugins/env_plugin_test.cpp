// Tests of the env plugin's real .so: VK_TASK_INDEX / VC_TASK_INDEX on every container and init
// container, idempotency, the plugin-env marker, and flag validation.
#include <gtest/gtest.h>

#include <jobhost/testing/testing.h>

namespace jobhost::testing {
namespace {

using Strings = std::vector<std::string>;

class EnvPluginTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(h_.ok()) << h_.loadError();
    plugin_ = &h_.plugin("env");
  }
  JobHooksPlugin& hooks() { return *plugin_->jobHooks(); }

  Harness h_{{shipped("env")}};
  PluginInstance* plugin_ = nullptr;
  Job job_ = job("demo", {task("data-loader", 3, {container("main", {EnvVar::literal("USER_VAR", "x")}),
                                                  container("sidecar")}),
                          task("idle", 0)},
                 {{"env", {}}});
  RuntimeInfo info_ = runtimeInfo(job_);
  FakeResourceClient client_;
};

TEST_F(EnvPluginTest, ReportsItsPoints) {
  EXPECT_EQ(h_.pluginInfo("env").name, "env");
  EXPECT_EQ(h_.capabilities("env"), kValidation | kJobHooks);
}

TEST_F(EnvPluginTest, AppendsTaskIndexToContainersAndInitContainers) {
  job_.spec.tasks[0].template_.spec.initContainers = {container("init")};
  Pod p = pod(job_, "data-loader", 2);
  FakeJobContext ctx(job_, info_, client_, {});
  ASSERT_TRUE(hooks().onPodCreate(ctx, p));
  EXPECT_EQ(envList(p.spec.containers[0]), (Strings{"USER_VAR=x", "VK_TASK_INDEX=2", "VC_TASK_INDEX=2"}));
  EXPECT_EQ(envList(p.spec.containers[1]), (Strings{"VK_TASK_INDEX=2", "VC_TASK_INDEX=2"}));
  EXPECT_EQ(envList(p.spec.initContainers[0]), (Strings{"VK_TASK_INDEX=2", "VC_TASK_INDEX=2"}));
}

TEST_F(EnvPluginTest, PodCreateTwiceGivesTheSamePod) {
  Pod p = pod(job_, "data-loader", 0);
  FakeJobContext ctx(job_, info_, client_, {});
  ASSERT_TRUE(hooks().onPodCreate(ctx, p));
  const Pod once = p;
  ASSERT_TRUE(hooks().onPodCreate(ctx, p));
  EXPECT_EQ(p, once);
  EXPECT_TRUE(ctx.ledger.conflicts().empty());
}

// Volcano appends VK_TASK_INDEX then VC_TASK_INDEX: they end the env in that order even when the
// template already set one of them (upserting in place would leave it before USER_VAR).
TEST_F(EnvPluginTest, InjectedIndexEndsTheEnvInVolcanosOrderEvenWhenTheTemplateSetsIt) {
  job_.spec.tasks[0].template_.spec.containers[0].env = {EnvVar::literal("VC_TASK_INDEX", "stale"),
                                                         EnvVar::literal("USER_VAR", "x")};
  job_.spec.tasks[0].template_.spec.initContainers = {
      container("init", {EnvVar::literal("VK_TASK_INDEX", "stale"), EnvVar::literal("VC_TASK_INDEX", "stale"),
                         EnvVar::literal("INIT_VAR", "y")})};
  Pod p = pod(job_, "data-loader", 2);
  FakeJobContext ctx(job_, info_, client_, {});
  ASSERT_TRUE(hooks().onPodCreate(ctx, p));
  EXPECT_EQ(envList(p.spec.containers[0]), (Strings{"USER_VAR=x", "VK_TASK_INDEX=2", "VC_TASK_INDEX=2"}));
  EXPECT_EQ(envList(p.spec.initContainers[0]), (Strings{"INIT_VAR=y", "VK_TASK_INDEX=2", "VC_TASK_INDEX=2"}));
  const Pod once = p;
  ASSERT_TRUE(hooks().onPodCreate(ctx, p));
  EXPECT_EQ(p, once);
}

TEST_F(EnvPluginTest, TemplateHostnameDoesNotChangeTheIndex) {
  job_.spec.tasks[0].template_.spec.hostname = "loader";
  job_.spec.tasks[0].template_.spec.subdomain = "net";
  Pod p = pod(job_, "data-loader", 1);
  FakeJobContext ctx(job_, info_, client_, {});
  ASSERT_TRUE(hooks().onPodCreate(ctx, p));
  EXPECT_EQ(envList(p.spec.containers[1]), (Strings{"VK_TASK_INDEX=1", "VC_TASK_INDEX=1"}));
  EXPECT_EQ(p.spec.hostname, "loader");  // env leaves pod identity to svc
}

TEST_F(EnvPluginTest, IndexIsTheLastDashSeparatedPartOfThePodName) {
  Pod p = pod(job_, "data-loader", 11);
  FakeJobContext ctx(job_, info_, client_, {});
  ASSERT_TRUE(hooks().onPodCreate(ctx, p));
  EXPECT_EQ(envList(p.spec.containers[1]), (Strings{"VK_TASK_INDEX=11", "VC_TASK_INDEX=11"}));
}

TEST_F(EnvPluginTest, MarkerIsSetOnAddAndRemovedOnDeleteWithoutObjects) {
  FakeJobContext ctx(job_, info_, client_, {});
  ASSERT_TRUE(hooks().onJobAdd(ctx));
  ASSERT_TRUE(hooks().onJobAdd(ctx));
  EXPECT_EQ(job_.status.controlledResources, (std::map<std::string, std::string>{{"plugin-env", "env"}}));
  ASSERT_TRUE(hooks().onJobUpdate(ctx));
  ASSERT_TRUE(hooks().onJobDelete(ctx));
  ASSERT_TRUE(hooks().onJobDelete(ctx));
  EXPECT_TRUE(job_.status.controlledResources.empty());
  EXPECT_TRUE(client_.calls.empty());
}

TEST_F(EnvPluginTest, AnyFlagIsAnAdmissionWarningNamingPluginAndFlag) {
  ValidationResult out;
  ASSERT_TRUE(plugin_->validation()->validate(job_, nullptr, {"--foo=1"}, out));
  EXPECT_TRUE(out.errors.empty());
  EXPECT_EQ(out.warnings, std::vector<std::string>{"spec.plugins.env: plugin env: flag provided but not defined: -foo"
                                                   " (ignored as on Volcano: flags before it apply, flags after it keep "
                                                   "their defaults, and a value that does not parse is set as Go sets it: "
                                                   "0, false or the bound it passed)"});

  ValidationResult clean;
  ASSERT_TRUE(plugin_->validation()->validate(job_, nullptr, {}, clean));
  EXPECT_TRUE(clean.errors.empty());
  EXPECT_TRUE(clean.warnings.empty());
}

// End to end through the production loader and the sim cluster: a multi-task job with dashed task
// names, a template hostname and a zero-replica task; aborting it runs OnJobDelete.
TEST(EnvPluginJob, EveryPodOfEveryTaskGetsItsIndexAndAbortClearsTheMarker) {
  Harness h({shipped("env")});
  ASSERT_TRUE(h.ok()) << h.loadError();
  ASSERT_TRUE(h.submit(R"(
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: demo, namespace: team-a}
spec:
  plugins: {env: []}
  tasks:
    - name: data-loader
      replicas: 2
      template:
        spec:
          restartPolicy: Never
          initContainers: [{name: init, image: busybox}]
          containers: [{name: main, image: busybox, env: [{name: USER_VAR, value: x}]}]
    - name: fixed
      replicas: 1
      template: {spec: {hostname: fixed-host, restartPolicy: Never, containers: [{name: main, image: busybox}]}}
    - name: idle
      replicas: 0
      template: {spec: {restartPolicy: Never, containers: [{name: main, image: busybox}]}}
)"));
  EXPECT_EQ(h.podNames(), (Strings{"demo-data-loader-0", "demo-data-loader-1", "demo-fixed-0"}));
  const PodView loader = h.pod("demo-data-loader-1");
  EXPECT_EQ(loader.envList("main"), (Strings{"USER_VAR=x", "VK_TASK_INDEX=1", "VC_TASK_INDEX=1"}));
  EXPECT_EQ(envList(loader.initContainer("init")), (Strings{"VK_TASK_INDEX=1", "VC_TASK_INDEX=1"}));
  EXPECT_EQ(h.pod("demo-fixed-0").envList(), (Strings{"VK_TASK_INDEX=0", "VC_TASK_INDEX=0"}));
  EXPECT_EQ(h.job().status.controlledResources.at("plugin-env"), "env");
  EXPECT_TRUE(h.resources().empty());

  h.command("AbortJob");
  h.advance(1000);
  EXPECT_EQ(h.phase(), JobPhase::Aborted);
  EXPECT_EQ(h.job().status.controlledResources.count("plugin-env"), 0u);
}

TEST(EnvPluginLoad, BadConfigDefaultArgsFailTheLoad) {
  Harness loaded({shipped("env", {"-x"})});
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.loadError().find("rejected its config args: plugin env: flag provided but not defined: -x"),
            std::string::npos)
      << loaded.loadError();
}

}  // namespace
}  // namespace jobhost::testing
