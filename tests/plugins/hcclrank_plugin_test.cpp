// Tests of the hcclrank plugin's real .so: the hccl/rankIndex annotation from RANK or the task
// index (workers after the masters), the tasks it leaves alone, its errors, flags and validation.
#include <gtest/gtest.h>

#include <jobhost/testing/testing.h>

namespace jobhost::testing {
namespace {

using Strings = std::vector<std::string>;

constexpr const char* kRank = "hccl/rankIndex";

// Two masters, three workers and a launcher; `plugins` is the job's spec.plugins.
std::string hcclJob(const std::string& plugins = "{hcclrank: []}") {
  return R"(
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: npu, namespace: team-a}
spec:
  plugins: )" + plugins + R"(
  tasks:
    - {name: master, replicas: 2, template: {spec: {containers: [{name: main, image: mindspore}]}}}
    - {name: worker, replicas: 3, template: {spec: {containers: [{name: main, image: mindspore}]}}}
    - {name: launcher, replicas: 1, template: {spec: {containers: [{name: main, image: mindspore}]}}}
)";
}

class HcclrankPluginTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(h_.ok()) << h_.loadError();
    hooks_ = h_.plugin("hcclrank").jobHooks();
  }
  // onPodCreate on pod `index` of `task` of job_, with `args`; the annotation, or "<none>".
  std::string rankOf(const std::string& task, int32_t index, const PluginArgs& args = {}) {
    Pod p = pod(job_, task, index);
    return rankOf(p, args);
  }
  std::string rankOf(Pod& p, const PluginArgs& args = {}) {
    FakeJobContext ctx(job_, info_, client_, args);
    const Status st = hooks_->onPodCreate(ctx, p);
    if (!st) return "error: " + st.message();
    auto it = p.metadata.annotations.find(kRank);
    return it == p.metadata.annotations.end() ? "<none>" : it->second;
  }

  Harness h_{{shipped("hcclrank")}};
  JobHooksPlugin* hooks_ = nullptr;
  Job job_ = job("npu", {task("master", 2), task("worker", 3), task("launcher", 1)}, {{"hcclrank", {}}});
  RuntimeInfo info_ = runtimeInfo(job_);
  FakeResourceClient client_;
};

TEST_F(HcclrankPluginTest, ReportsItsPoints) {
  EXPECT_EQ(h_.pluginInfo("hcclrank").name, "hcclrank");
  EXPECT_EQ(h_.capabilities("hcclrank"), kValidation | kJobHooks);
}

TEST_F(HcclrankPluginTest, MastersGetTheirIndexAndWorkersComeAfterTheMasters) {
  EXPECT_EQ(rankOf("master", 0), "0");
  EXPECT_EQ(rankOf("master", 1), "1");
  EXPECT_EQ(rankOf("worker", 0), "2");
  EXPECT_EQ(rankOf("worker", 2), "4");
  EXPECT_EQ(rankOf("launcher", 0), "<none>");
}

TEST_F(HcclrankPluginTest, WithoutAMasterTaskWorkersStartAtZero) {
  job_ = job("npu", {task("worker", 2)}, {{"hcclrank", {}}});
  EXPECT_EQ(rankOf("worker", 1), "1");
}

TEST_F(HcclrankPluginTest, TheFirstRankVariableOfTheContainersWins) {
  Pod p = pod(job_, "launcher", 0);
  p.spec.initContainers = {container("init", {EnvVar::literal("RANK", "9")})};  // init containers are not read
  p.spec.containers = {container("a", {EnvVar::literal("OTHER", "x")}), container("b", {EnvVar::literal("RANK", "7")}),
                       container("c", {EnvVar::literal("RANK", "8")})};
  EXPECT_EQ(rankOf(p), "7");  // even for a task that is neither master nor worker
}

TEST_F(HcclrankPluginTest, ARankFromAReferenceFallsBackToTheTaskIndex) {
  Pod p = pod(job_, "worker", 1);
  EnvVar fromField{"RANK", "", EnvVarSource{}};
  fromField.valueFrom->fieldRef = FieldSelector{"", "metadata.annotations['rank']"};
  p.spec.containers[0].env = {fromField, EnvVar::literal("RANK", "5")};
  EXPECT_EQ(rankOf(p), "3");  // the first RANK has no literal value, as Volcano's getEnv reads it
}

TEST_F(HcclrankPluginTest, AnAnnotationAlreadySetIsKept) {
  Pod p = pod(job_, "worker", 0);
  p.metadata.annotations[kRank] = "42";
  EXPECT_EQ(rankOf(p), "42");
  p.metadata.annotations[kRank] = "";  // empty counts as unset
  EXPECT_EQ(rankOf(p), "2");
  EXPECT_EQ(rankOf(p), "2");  // and a second call keeps it
}

TEST_F(HcclrankPluginTest, TheTaskIndexLabelMustBeAnInteger) {
  Pod p = pod(job_, "master", 1);
  p.metadata.labels.erase("volcano.sh/task-index");
  EXPECT_EQ(rankOf(p), "error: pod npu-master-1 doesn't have volcano.sh/task-index label");
  p.metadata.labels["volcano.sh/task-index"] = "one";
  EXPECT_EQ(rankOf(p), "error: failed to parse task index for pod npu-master-1: strconv.Atoi: parsing \"one\": "
                       "invalid syntax");
  p.metadata.labels["volcano.sh/task-index"] = "99999999999999999999";
  EXPECT_EQ(rankOf(p), "error: failed to parse task index for pod npu-master-1: strconv.Atoi: parsing "
                       "\"99999999999999999999\": value out of range");
  p.metadata.labels["volcano.sh/task-index"] = "+007";  // Atoi takes a sign and leading zeros
  EXPECT_EQ(rankOf(p), "7");
  Pod launcher = pod(job_, "launcher", 0);
  launcher.metadata.labels.clear();  // a task it leaves alone needs no label
  EXPECT_EQ(rankOf(launcher), "<none>");
}

TEST_F(HcclrankPluginTest, FlagsRenameTheRoles) {
  const PluginArgs args = {"--master=launcher", "--worker=master"};
  EXPECT_EQ(rankOf("launcher", 0, args), "0");
  EXPECT_EQ(rankOf("master", 1, args), "2");  // 1 launcher + index 1
  EXPECT_EQ(rankOf("worker", 0, args), "<none>");
}

TEST_F(HcclrankPluginTest, TheOtherHooksDoNothingAndSetNoMarker) {
  FakeJobContext ctx(job_, info_, client_, {});
  ASSERT_TRUE(hooks_->onJobAdd(ctx));
  ASSERT_TRUE(hooks_->onJobUpdate(ctx));
  ASSERT_TRUE(hooks_->onJobDelete(ctx));
  EXPECT_TRUE(job_.status.controlledResources.empty());
  EXPECT_TRUE(client_.calls.empty());
}

TEST_F(HcclrankPluginTest, AnUnknownFlagIsAnAdmissionWarningNamingPluginAndFlag) {
  ValidationResult out;
  ASSERT_TRUE(h_.plugin("hcclrank").validation()->validate(job_, nullptr, {"--rank=1"}, out));
  EXPECT_TRUE(out.errors.empty());
  EXPECT_EQ(out.warnings, Strings{"spec.plugins.hcclrank: plugin hcclrank: flag provided but not defined: -rank"
                                  " (ignored as on Volcano: flags before it apply, flags after it keep "
                                  "their defaults, and a value that does not parse is set as Go sets it: "
                                  "0, false or the bound it passed)"});
}

// End to end through the production loader and the sim cluster, after torch (config order): a
// pytorch job's RANK becomes the annotation; a job without torch gets ranks from the task index.
TEST(HcclrankPluginJob, TheAnnotationFollowsTorchsRankOrTheTaskIndex) {
  Harness h({shipped("svc"), shipped("torch"), shipped("hcclrank")});
  ASSERT_TRUE(h.ok()) << h.loadError();
  const Submission s = h.submit(hcclJob("{hcclrank: [], torch: [], svc: []}"));
  ASSERT_TRUE(s) << s.error << (s.errors.empty() ? "" : s.errors[0].message);
  EXPECT_EQ(h.pod("npu-master-1").annotation(kRank), "0");  // torch's RANK for a master is 0
  EXPECT_EQ(h.pod("npu-worker-0").annotation(kRank), "1");  // torch: worker index + 1
  EXPECT_EQ(h.pod("npu-launcher-0").annotation(kRank), std::nullopt);

  Harness plain({shipped("hcclrank")});
  ASSERT_TRUE(plain.ok()) << plain.loadError();
  ASSERT_TRUE(plain.submit(hcclJob()));
  Strings ranks;
  for (const auto& name : plain.podNames()) ranks.push_back(name + "=" + plain.pod(name).annotation(kRank).value_or("-"));
  EXPECT_EQ(ranks, (Strings{"npu-launcher-0=-", "npu-master-0=0", "npu-master-1=1", "npu-worker-0=2",
                            "npu-worker-1=3", "npu-worker-2=4"}));
  EXPECT_TRUE(plain.job().status.controlledResources.empty());
}

}  // namespace
}  // namespace jobhost::testing
