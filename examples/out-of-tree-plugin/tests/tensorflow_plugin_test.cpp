// Tests of the tensorflow plugin with the jobhost::testing harness: the built .so through the
// production loader (with the shipped svc plugin the mutation adds), TF_CONFIG values, flags, conformance.
#include <gtest/gtest.h>
#include <jobhost/testing/conformance.h>
#include <jobhost/testing/harness.h>

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

std::vector<PluginSource> plugins(PluginSource tensorflow) {
  return {sharedObject(JOBHOST_SHIPPED_PLUGINS "/libjobhost_svc.so"), std::move(tensorflow)};
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

TEST_F(TensorflowPlugin, UnknownFlagIsAnAdmissionError) {
  Submission s = h_.admit(tfJob(R"(["--learning-rate=1"])"));
  EXPECT_FALSE(s.admitted);
  ASSERT_EQ(s.errors.size(), 1u);
  EXPECT_EQ(s.errors[0].field, "spec.plugins.tensorflow");
  EXPECT_EQ(s.errors[0].message, "plugin tensorflow: flag provided but not defined: -learning-rate");
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
