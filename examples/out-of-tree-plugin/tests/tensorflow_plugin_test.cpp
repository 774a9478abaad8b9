// Tests of the tensorflow plugin with the jobhost::testing harness: the built .so through the
// production loader (with the shipped svc plugin the mutation adds), TF_CONFIG values, flags, conformance.
#include <gtest/gtest.h>
#include <jobhost/testing/conformance.h>
#include <jobhost/testing/harness.h>

#include <algorithm>

JOBHOST_DECLARE_STATIC_PLUGIN(tensorflow);

namespace {
using namespace jobhost;
using namespace jobhost::testing;

// A ps and two workers; `extra` is appended to the worker task (e.g. a hostname).
std::string tfJob(const std::string& args = "[]", const std::string& workerName = "worker",
                  const std::string& extra = "") {
  return R"(
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: tf, namespace: team-a}
spec:
  minAvailable: 3
  plugins: {tensorflow: )" + args + R"(}
  tasks:
    - name: ps
      replicas: 1
      template: {spec: {containers: [{name: tensorflow, image: tf}]}}
    - name: )" + workerName + R"(
      replicas: 2
      template:
        spec:)" + extra + R"(
          initContainers: [{name: init, image: busybox}]
          containers: [{name: tensorflow, image: tf}, {name: sidecar, image: busybox}]
)";
}

// The SDK's shipped svc (shipped() finds it beside the installed libjobhost_testing.so), then the
// plugin under test.
std::vector<PluginSource> plugins(PluginSource tensorflow) {
  return {shipped("svc"), std::move(tensorflow)};
}

class TensorflowPlugin : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(h_.ok()) << h_.loadError(); }
  Harness h_{plugins(sharedObject(TF_PLUGIN_FILE))};
};

TEST_F(TensorflowPlugin, EveryContainerGetsTheClusterAndItsTask) {
  ASSERT_TRUE(h_.submit(tfJob()));
  const PodView w1 = h_.pod("tf-worker-1");
  const std::string expected =
      R"({"cluster":{"ps":["tf-ps-0.tf:2222"],"worker":["tf-worker-0.tf:2222","tf-worker-1.tf:2222"]},)"
      R"("task":{"type":"worker","index":1}})";
  EXPECT_EQ(w1.env("TF_CONFIG", "tensorflow"), expected);
  EXPECT_EQ(w1.env("TF_CONFIG", "sidecar"), expected);
  EXPECT_EQ(h_.pod("tf-ps-0").env("TF_CONFIG"),
            R"({"cluster":{"ps":["tf-ps-0.tf:2222"],"worker":["tf-worker-0.tf:2222","tf-worker-1.tf:2222"]},)"
            R"("task":{"type":"ps","index":0}})");
}

TEST_F(TensorflowPlugin, TfConfigEndsTheEnvLikeVolcanosAppend) {
  // The template already sets TF_CONFIG and another variable: one TF_CONFIG remains, the plugin's,
  // and it is the container's last variable (after svc's, which the mutation enabled).
  ASSERT_TRUE(h_.submit(R"(
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: tf, namespace: team-a}
spec:
  plugins: {tensorflow: []}
  tasks:
    - name: ps
      replicas: 1
      template: {spec: {containers: [{name: tensorflow, image: tf}]}}
    - name: worker
      replicas: 1
      template:
        spec:
          containers:
            - name: tensorflow
              image: tf
              env: [{name: TF_CONFIG, value: stale}, {name: USER_VAR, value: x}]
)"));
  const PodView w0 = h_.pod("tf-worker-0");
  const std::vector<std::string> env = w0.envList("tensorflow");
  ASSERT_FALSE(env.empty());
  EXPECT_EQ(env.front(), "USER_VAR=x");
  EXPECT_EQ(env.back().rfind("TF_CONFIG={\"cluster\"", 0), 0u) << ::testing::PrintToString(env);
  EXPECT_EQ(std::count_if(env.begin(), env.end(), [](const std::string& e) { return e.rfind("TF_CONFIG", 0) == 0; }), 1);
}

TEST_F(TensorflowPlugin, InitContainersAreLeftAlone) {
  ASSERT_TRUE(h_.submit(tfJob()));
  const auto& init = h_.pod("tf-worker-0").initContainer("init");
  for (const auto& e : init.env) EXPECT_NE(e.name, "TF_CONFIG");
}

TEST_F(TensorflowPlugin, FlagsRenameRolesAndSetThePort) {
  ASSERT_TRUE(h_.submit(tfJob(R"(["--worker=trainer", "--port=3333"])", "trainer")));
  EXPECT_EQ(h_.pod("tf-trainer-0").env("TF_CONFIG"),
            R"({"cluster":{"ps":["tf-ps-0.tf:3333"],"worker":["tf-trainer-0.tf:3333","tf-trainer-1.tf:3333"]},)"
            R"("task":{"type":"worker","index":0}})");
}

TEST_F(TensorflowPlugin, UnknownTaskKeepsItsNameAndStaysOutOfTheCluster) {
  ASSERT_TRUE(h_.submit(tfJob("[]", "launcher")));
  EXPECT_EQ(h_.pod("tf-launcher-1").env("TF_CONFIG"),
            R"({"cluster":{"ps":["tf-ps-0.tf:2222"]},"task":{"type":"launcher","index":1}})");
}

TEST_F(TensorflowPlugin, AFixedHostnameIsRepeatedForEveryReplica) {
  ASSERT_TRUE(h_.submit(tfJob("[]", "worker", "\n          hostname: trainer\n          subdomain: net")));
  EXPECT_EQ(h_.pod("tf-ps-0").env("TF_CONFIG"),
            R"({"cluster":{"ps":["tf-ps-0.tf:2222"],"worker":["trainer.net:2222","trainer.net:2222"]},)"
            R"("task":{"type":"ps","index":0}})");
}

TEST_F(TensorflowPlugin, ASinglePodJobGetsNoTfConfig) {
  ASSERT_TRUE(h_.submit(R"(
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: solo, namespace: team-a}
spec:
  plugins: {tensorflow: []}
  tasks: [{name: worker, replicas: 1, template: {spec: {containers: [{name: tensorflow, image: tf}]}}}]
)"));
  EXPECT_EQ(h_.pod("solo-worker-0").env("TF_CONFIG"), std::nullopt);
}

// A job with the given tasks ("<name>:<replicas>", in that order), one container each.
std::string tasksJob(const std::vector<std::string>& tasks, const std::string& args = "[]",
                     const std::string& name = "tf") {
  std::string out = R"(
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: )" + name + R"(, namespace: team-a}
spec:
  plugins: {tensorflow: )" + args + R"(}
  tasks:
)";
  for (const auto& t : tasks) {
    const auto colon = t.find(':');
    out += "    - {name: " + t.substr(0, colon) + ", replicas: " + t.substr(colon + 1) +
           ", template: {spec: {containers: [{name: tensorflow, image: tf}]}}}\n";
  }
  return out;
}

TEST_F(TensorflowPlugin, ClusterKeysComeInTheOrderPsWorkerChiefEvaluator) {
  // Tasks declared in the opposite order; the keys still follow ps, worker, chief, evaluator.
  ASSERT_TRUE(h_.submit(tasksJob({"evaluator:1", "chief:1", "worker:2", "ps:1"})));
  const std::string cluster =
      R"({"cluster":{"ps":["tf-ps-0.tf:2222"],"worker":["tf-worker-0.tf:2222","tf-worker-1.tf:2222"],)"
      R"("chief":["tf-chief-0.tf:2222"],"evaluator":["tf-evaluator-0.tf:2222"]},)";
  EXPECT_EQ(h_.pod("tf-chief-0").env("TF_CONFIG"), cluster + R"("task":{"type":"chief","index":0}})");
  EXPECT_EQ(h_.pod("tf-evaluator-0").env("TF_CONFIG"), cluster + R"("task":{"type":"evaluator","index":0}})");
  EXPECT_EQ(h_.pod("tf-worker-1").env("TF_CONFIG"), cluster + R"("task":{"type":"worker","index":1}})");
}

TEST_F(TensorflowPlugin, EmptyRolesAreOmitted) {
  // chief has no replicas and evaluator no task: neither key appears; no empty list is written.
  ASSERT_TRUE(h_.submit(tasksJob({"ps:1", "chief:0", "worker:1"})));
  EXPECT_EQ(h_.pod("tf-worker-0").env("TF_CONFIG"),
            R"({"cluster":{"ps":["tf-ps-0.tf:2222"],"worker":["tf-worker-0.tf:2222"]},)"
            R"("task":{"type":"worker","index":0}})");
}

TEST_F(TensorflowPlugin, AllFourRoleFlagsRenameTheirTasks) {
  ASSERT_TRUE(h_.submit(tasksJob({"server:1", "trainer:1", "boss:1", "judge:1"},
                                 R"(["--ps=server", "--worker=trainer", "--chief=boss", "--evaluator=judge"])")));
  const std::string cluster =
      R"({"cluster":{"ps":["tf-server-0.tf:2222"],"worker":["tf-trainer-0.tf:2222"],"chief":["tf-boss-0.tf:2222"],)"
      R"("evaluator":["tf-judge-0.tf:2222"]},)";
  EXPECT_EQ(h_.pod("tf-server-0").env("TF_CONFIG"), cluster + R"("task":{"type":"ps","index":0}})");
  EXPECT_EQ(h_.pod("tf-trainer-0").env("TF_CONFIG"), cluster + R"("task":{"type":"worker","index":0}})");
  EXPECT_EQ(h_.pod("tf-boss-0").env("TF_CONFIG"), cluster + R"("task":{"type":"chief","index":0}})");
  EXPECT_EQ(h_.pod("tf-judge-0").env("TF_CONFIG"), cluster + R"("task":{"type":"evaluator","index":0}})");
}

TEST_F(TensorflowPlugin, ARenamedRoleNoLongerMatchesItsDefaultName) {
  // --chief=boss: a task still called "chief" is an unknown task now (raw type, not in the cluster).
  ASSERT_TRUE(h_.submit(tasksJob({"ps:1", "chief:1"}, R"(["--chief=boss"])")));
  EXPECT_EQ(h_.pod("tf-chief-0").env("TF_CONFIG"),
            R"({"cluster":{"ps":["tf-ps-0.tf:2222"]},"task":{"type":"chief","index":0}})");
}

TEST_F(TensorflowPlugin, CollidingRoleFlagsResolveLikeVolcano) {
  // Volcano files a task's hosts by testing ps, worker, chief, evaluator, but types a pod by testing
  // chief, worker, ps, evaluator: with --chief=worker the worker pods say "chief" under "worker".
  ASSERT_TRUE(h_.submit(tasksJob({"ps:1", "worker:1"}, R"(["--chief=worker"])")));
  EXPECT_EQ(h_.pod("tf-worker-0").env("TF_CONFIG"),
            R"({"cluster":{"ps":["tf-ps-0.tf:2222"],"worker":["tf-worker-0.tf:2222"]},)"
            R"("task":{"type":"chief","index":0}})");
}

TEST_F(TensorflowPlugin, OnlyExactlyOneTaskWithOneReplicaIsSkipped) {
  ASSERT_TRUE(h_.submit(tasksJob({"worker:2"})));
  EXPECT_EQ(h_.pod("tf-worker-1").env("TF_CONFIG"),
            R"({"cluster":{"worker":["tf-worker-0.tf:2222","tf-worker-1.tf:2222"]},"task":{"type":"worker","index":1}})");
  Harness twoTasks(plugins(sharedObject(TF_PLUGIN_FILE)));
  ASSERT_TRUE(twoTasks.submit(tasksJob({"ps:1", "worker:1"})));
  EXPECT_EQ(twoTasks.pod("tf-ps-0").env("TF_CONFIG"),
            R"({"cluster":{"ps":["tf-ps-0.tf:2222"],"worker":["tf-worker-0.tf:2222"]},"task":{"type":"ps","index":0}})");
}

TEST_F(TensorflowPlugin, IndexIsThePodNameSuffixEvenWithDashesInNames) {
  ASSERT_TRUE(h_.submit(tasksJob({"ps:1", "worker:3"}, "[]", "my-tf-job")));
  EXPECT_EQ(h_.pod("my-tf-job-worker-2").env("TF_CONFIG"),
            R"({"cluster":{"ps":["my-tf-job-ps-0.my-tf-job:2222"],"worker":["my-tf-job-worker-0.my-tf-job:2222",)"
            R"("my-tf-job-worker-1.my-tf-job:2222","my-tf-job-worker-2.my-tf-job:2222"]},)"
            R"("task":{"type":"worker","index":2}})");
}

TEST_F(TensorflowPlugin, TheJobsPortFlagOverridesTheConfigDefault) {
  Harness h(plugins(sharedObject(TF_PLUGIN_FILE, {"--port=1111"})));
  ASSERT_TRUE(h.ok()) << h.loadError();
  ASSERT_TRUE(h.submit(tasksJob({"ps:1", "worker:1"})));
  EXPECT_EQ(h.pod("tf-ps-0").env("TF_CONFIG"),
            R"({"cluster":{"ps":["tf-ps-0.tf:1111"],"worker":["tf-worker-0.tf:1111"]},"task":{"type":"ps","index":0}})");
  Harness h2(plugins(sharedObject(TF_PLUGIN_FILE, {"--port=1111"})));
  ASSERT_TRUE(h2.submit(tasksJob({"ps:1", "worker:1"}, R"(["--port=3333"])")));
  EXPECT_EQ(h2.pod("tf-ps-0").env("TF_CONFIG"),
            R"({"cluster":{"ps":["tf-ps-0.tf:3333"],"worker":["tf-worker-0.tf:3333"]},"task":{"type":"ps","index":0}})");
}

TEST_F(TensorflowPlugin, ABadConfigArgFailsTheLoad) {
  Harness h(plugins(sharedObject(TF_PLUGIN_FILE, {"--port=many"})));
  ASSERT_FALSE(h.ok());
  EXPECT_NE(h.loadError().find("plugin \"tensorflow\" rejected its config args: plugin tensorflow: invalid value "
                               "\"many\" for flag -port: parse error"),
            std::string::npos)
      << h.loadError();
}

TEST_F(TensorflowPlugin, UnknownFlagIsAnAdmissionWarning) {
  Submission s = h_.admit(tfJob(R"(["--learning-rate=1"])"));
  EXPECT_TRUE(s.admitted);
  EXPECT_TRUE(s.errors.empty());
  EXPECT_EQ(s.warnings, std::vector<std::string>{"spec.plugins.tensorflow: plugin tensorflow: flag provided but not "
                                                 "defined: -learning-rate (ignored as on Volcano: flags before it apply, flags after it keep "
                                                 "their defaults, and a value that does not parse is set as Go sets it: "
                                                 "0, false or the bound it passed)"});
}

// As on Volcano, the job runs: the flags before the unknown one apply, the ones after it do not.
TEST_F(TensorflowPlugin, AJobWithAnUnknownFlagRunsWithTheFlagsBeforeIt) {
  ASSERT_TRUE(h_.submit(tfJob(R"(["--port=5000", "--learning-rate=1", "--ps=worker"])")));
  EXPECT_EQ(h_.pod("tf-ps-0").env("TF_CONFIG"),
            R"({"cluster":{"ps":["tf-ps-0.tf:5000"],"worker":["tf-worker-0.tf:5000","tf-worker-1.tf:5000"]},)"
            R"("task":{"type":"ps","index":0}})");
}

TEST_F(TensorflowPlugin, JobRunsToCompletionOnVirtualTime) {
  h_.scriptDefault(runsFor(30000));
  ASSERT_TRUE(h_.submit(tfJob()));
  h_.advance(1000);
  EXPECT_EQ(h_.phase(), JobPhase::Running);
  EXPECT_EQ(h_.job().status.controlledResources.at("plugin-tensorflow"), "tensorflow");
  ASSERT_TRUE(h_.runUntilFinished(120000));
  EXPECT_EQ(h_.phase(), JobPhase::Completed);
  EXPECT_EQ(h_.now(), 31000);
  EXPECT_EQ(h_.job().status.controlledResources.count("plugin-tensorflow"), 0u);  // OnJobDelete ran
}

TEST_F(TensorflowPlugin, PassesTheConformanceSuite) { EXPECT_TRUE(runConformance(h_, tfJob())); }

TEST(TensorflowInProcess, GivesTheSamePodsAsTheSharedObject) {
  Harness fromSo(plugins(sharedObject(TF_PLUGIN_FILE)));
  Harness inProc(plugins(inProcess(&jobhost_plugin_entry_tensorflow)));
  ASSERT_TRUE(fromSo.submit(tfJob()));
  ASSERT_TRUE(inProc.submit(tfJob()));
  EXPECT_EQ(fromSo.pod("tf-worker-0").pod().spec, inProc.pod("tf-worker-0").pod().spec);
}

}  // namespace
