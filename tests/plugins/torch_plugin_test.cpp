// Tests of the torch plugin's real .so under both names: Volcano's env then torchrun's PET_* env in
// exact order, ports, nproc resolution, wait-for-master, pipeline/hook agreement, markers, validation.
#include <gtest/gtest.h>

#include <algorithm>

#include <jobhost/testing/testing.h>

namespace jobhost::testing {
namespace {

using Strings = std::vector<std::string>;

Quantity q(const char* text) { return *Quantity::parse(text); }

Container withCpu(std::string name, const char* request, const char* limit = nullptr) {
  Container c = container(std::move(name));
  if (request) c.resources.requests["cpu"] = q(request);
  if (limit) c.resources.limits["cpu"] = q(limit);
  return c;
}

Strings expectedEnv(const std::string& port, const std::string& nproc, const std::string& rank) {
  Strings env = {"MASTER_ADDR=demo-master-0.demo", "MASTER_PORT=" + port, "WORLD_SIZE=4"};
  if (!rank.empty()) env.push_back("RANK=" + rank);
  env.push_back("PET_NNODES=4");
  env.push_back("PET_NPROC_PER_NODE=" + nproc);
  if (!rank.empty()) env.push_back("PET_NODE_RANK=" + rank);
  env.push_back("PET_MASTER_ADDR=demo-master-0.demo");
  env.push_back("PET_MASTER_PORT=" + port);
  return env;
}

std::string waitScript() {
  return "echo \"Waiting for master node demo-master-0.demo:23456 to be ready...\"\n"
         "TIMEOUT=60\n"
         "ELAPSED=0\n"
         "until { nc -z demo-master-0.demo 23456 || echo > /dev/tcp/demo-master-0.demo/23456; } 2>/dev/null; do\n"
         "  if [ $ELAPSED -ge $TIMEOUT ]; then\n"
         "    echo \"Timeout waiting for master after ${TIMEOUT} seconds\"\n"
         "    exit 1\n"
         "  fi\n"
         "  echo \"Master not ready yet, retrying in 2 seconds... (elapsed: ${ELAPSED}s)\"\n"
         "  sleep 2\n"
         "  ELAPSED=$((ELAPSED + 2))\n"
         "done\n"
         "echo \"Master node is ready!\"";
}

class TorchPluginTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(h_.ok()) << h_.loadError();
    plugin_ = &h_.plugin("torch");
    job_.spec.tasks[0].template_.spec.initContainers = {container("init")};
  }
  JobHooksPlugin& hooks() { return *plugin_->jobHooks(); }
  Pod created(const std::string& task, int32_t index, const PluginArgs& args = {}) {
    Pod p = pod(job_, task, index);
    FakeJobContext ctx(job_, info_, client_, args);
    EXPECT_TRUE(hooks().onPodCreate(ctx, p));
    return p;
  }
  ValidationResult validate(const PluginArgs& args) {
    ValidationResult out;
    EXPECT_TRUE(plugin_->validation()->validate(job_, nullptr, args, out));
    return out;
  }

  Harness h_{{shipped("torch")}};
  PluginInstance* plugin_ = nullptr;
  Job job_ = job("demo",
                 {task("master", 1, {withCpu("main", "2500m")}),
                  task("worker", 3, {withCpu("main", "3"), withCpu("sidecar", nullptr, "500m")}),
                  task("data-prep", 1)},
                 {{"pytorch", {}}});
  RuntimeInfo info_ = runtimeInfo(job_);
  FakeResourceClient client_;
};

TEST_F(TorchPluginTest, ReportsItsPoints) {
  EXPECT_EQ(h_.pluginInfo("torch").name, "torch");
  EXPECT_EQ(h_.capabilities("torch"), kValidation | kMLPolicy | kJobHooks);
}

TEST_F(TorchPluginTest, MasterGetsVolcanoThenTorchrunEnvAndThePortInContainersOnly) {
  const Pod p = created("master", 0);
  EXPECT_EQ(envList(p.spec.containers[0]), expectedEnv("23456", "3", "0"));
  EXPECT_EQ(p.spec.containers[0].ports, (std::vector<ContainerPort>{{"pytorchjob-port", 23456, "", 0, ""}}));
  EXPECT_TRUE(p.spec.initContainers[0].env.empty());
  EXPECT_TRUE(p.spec.initContainers[0].ports.empty());
}

TEST_F(TorchPluginTest, WorkerRankIsIndexPlusOneAndNprocSumsCpuWithLimitFallback) {
  const Pod p = created("worker", 2);
  EXPECT_EQ(envList(p.spec.containers[0]), expectedEnv("23456", "4", "3"));
  EXPECT_EQ(envList(p.spec.containers[1]), expectedEnv("23456", "4", "3"));
  EXPECT_EQ(p.spec.containers[1].ports.size(), 1u);
  EXPECT_TRUE(p.spec.initContainers.empty());
}

TEST_F(TorchPluginTest, OtherTasksGetNoRankAndNprocAtLeastOne) {
  EXPECT_EQ(envList(created("data-prep", 0).spec.containers[0]), expectedEnv("23456", "1", ""));
}

TEST_F(TorchPluginTest, TorchNameDefaultsPortTo29500AndKeepsItsOwnMarker) {
  job_.spec.plugins = {{"torch", {}}};
  const Pod p = created("worker", 0);
  EXPECT_EQ(envList(p.spec.containers[0]), expectedEnv("29500", "4", "1"));
  EXPECT_EQ(p.spec.containers[0].ports[0].containerPort, 29500);
  FakeJobContext ctx(job_, info_, client_, {});
  ASSERT_TRUE(hooks().onJobAdd(ctx));
  EXPECT_EQ(job_.status.controlledResources, (std::map<std::string, std::string>{{"plugin-torch", "torch"}}));
}

TEST_F(TorchPluginTest, PytorchMarkerIsVolcanosAndHooksAreIdempotent) {
  FakeJobContext ctx(job_, info_, client_, {});
  ASSERT_TRUE(hooks().onJobAdd(ctx));
  ASSERT_TRUE(hooks().onJobAdd(ctx));
  EXPECT_EQ(job_.status.controlledResources, (std::map<std::string, std::string>{{"plugin-pytorch", "pytorch"}}));
  ASSERT_TRUE(hooks().onJobUpdate(ctx));
  ASSERT_TRUE(hooks().onJobDelete(ctx));
  ASSERT_TRUE(hooks().onJobDelete(ctx));
  EXPECT_TRUE(job_.status.controlledResources.empty());
  EXPECT_TRUE(client_.calls.empty());
}

TEST_F(TorchPluginTest, FlagsSetPortAndNproc) {
  const Pod p = created("master", 0, {"--port=1234", "-nproc-per-node", "8"});
  EXPECT_EQ(envList(p.spec.containers[0]), expectedEnv("1234", "8", "0"));
}

// The flag is an int32, as Trainer's numProcPerNode: leading zeros do not reach the env.
TEST_F(TorchPluginTest, AnNprocWithLeadingZerosIsSetInItsCanonicalForm) {
  const Pod p = created("master", 0, {"--nproc-per-node=007"});
  EXPECT_EQ(envList(p.spec.containers[0]), expectedEnv("23456", "7", "0"));
}

TEST_F(TorchPluginTest, AutoNprocStaysAutoWhenAGpuIsRequested) {
  job_.spec.tasks[0].template_.spec.containers[0].resources.limits["nvidia.com/gpu"] = q("2");
  EXPECT_EQ(envList(created("master", 0).spec.containers[0]), expectedEnv("23456", "auto", "0"));
}

// "CPU comes from requests unless zero, in which case limits are used", per container, summed,
// rounded up: an explicit request of 0 counts as none.
TEST_F(TorchPluginTest, AutoNprocUsesTheCpuRequestAndTheLimitWhenTheRequestIsZeroOrAbsent) {
  job_.spec.tasks[0].template_.spec.containers = {withCpu("main", "0", "4"), withCpu("sidecar", "1500m", "8")};
  EXPECT_EQ(created("master", 0).spec.containers[0].env[5].value, "6");  // ceil(4 + 1.5)
  job_.spec.tasks[0].template_.spec.containers = {withCpu("main", "0", "4")};
  EXPECT_EQ(envList(created("master", 0).spec.containers[0]), expectedEnv("23456", "4", "0"));
  job_.spec.tasks[0].template_.spec.containers = {withCpu("main", nullptr, "2100m")};
  EXPECT_EQ(envList(created("master", 0).spec.containers[0]), expectedEnv("23456", "3", "0"));
  job_.spec.tasks[0].template_.spec.containers = {withCpu("main", "0", nullptr)};
  EXPECT_EQ(envList(created("master", 0).spec.containers[0]), expectedEnv("23456", "1", "0"));
}

TEST_F(TorchPluginTest, TaskNamesWithDashesAndATemplateHostname) {
  job_ = job("demo", {task("trainer-main", 1), task("trainer-worker", 2)}, {{"pytorch", {}}});
  job_.spec.tasks[0].template_.spec.hostname = "head";
  job_.spec.tasks[0].template_.spec.subdomain = "net";
  const Pod p = created("trainer-worker", 1, {"--master=trainer-main", "--worker=trainer-worker"});
  EXPECT_EQ(envList(p.spec.containers[0]),
            (Strings{"MASTER_ADDR=head.net", "MASTER_PORT=23456", "WORLD_SIZE=3", "RANK=2", "PET_NNODES=3",
                     "PET_NPROC_PER_NODE=1", "PET_NODE_RANK=2", "PET_MASTER_ADDR=head.net",
                     "PET_MASTER_PORT=23456"}));
}

TEST_F(TorchPluginTest, ZeroReplicaWorkersCountForNothing) {
  job_.spec.tasks[1].replicas = 0;
  EXPECT_EQ(envList(created("master", 0).spec.containers[0])[2], "WORLD_SIZE=1");
}

TEST_F(TorchPluginTest, WithoutAMasterTaskThePodIsUntouched) {
  job_ = job("demo", {task("worker", 2)}, {{"pytorch", {}}});
  const Pod before = pod(job_, "worker", 0);
  EXPECT_EQ(created("worker", 0), before);
}

TEST_F(TorchPluginTest, ExistingPortNumberIsNotAddedAgainAndUserEnvIsOverriddenInPlace) {
  auto& main = job_.spec.tasks[0].template_.spec.containers[0];
  main.ports = {{"custom", 23456, "", 0, ""}};
  main.env = {EnvVar::literal("MASTER_ADDR", "mine"), EnvVar::literal("OTHER", "y")};
  const Pod p = created("master", 0);
  Strings want = {"OTHER=y"};
  for (const auto& e : expectedEnv("23456", "3", "0")) want.push_back(e);
  EXPECT_EQ(envList(p.spec.containers[0]), want);
  EXPECT_EQ(p.spec.containers[0].ports, (std::vector<ContainerPort>{{"custom", 23456, "", 0, ""}}));
}

// Volcano compares and writes int32(port): 4294967318 is port 22, which the container has.
TEST_F(TorchPluginTest, APortBeyondInt32WrapsAsGosConversionDoes) {
  auto& main = job_.spec.tasks[0].template_.spec.containers[0];
  main.ports = {{"ssh", 22, "", 0, ""}};
  EXPECT_EQ(created("master", 0, {"--port=4294967318"}).spec.containers[0].ports,
            (std::vector<ContainerPort>{{"ssh", 22, "", 0, ""}}));
  main.ports.clear();
  EXPECT_EQ(created("master", 0, {"--port=4294967318"}).spec.containers[0].ports,
            (std::vector<ContainerPort>{{"pytorchjob-port", 22, "", 0, ""}}));
}

TEST_F(TorchPluginTest, WaitForMasterInitContainerOnWorkersOnlyAndOnce) {
  const PluginArgs args = {"--wait-master-enabled", "--wait-master-timeout=60", "--wait-master-image=alpine:3"};
  Pod p = pod(job_, "worker", 1);
  FakeJobContext ctx(job_, info_, client_, args);
  ASSERT_TRUE(hooks().onPodCreate(ctx, p));
  ASSERT_TRUE(hooks().onPodCreate(ctx, p));
  ASSERT_EQ(p.spec.initContainers.size(), 1u);
  const Container& wait = p.spec.initContainers[0];
  EXPECT_EQ(wait.name, "wait-for-master");
  EXPECT_EQ(wait.image, "alpine:3");
  EXPECT_EQ(wait.command, (Strings{"sh", "-c", waitScript()}));
  EXPECT_TRUE(wait.env.empty());
  EXPECT_TRUE(wait.ports.empty());
  EXPECT_EQ(created("master", 0, args).spec.initContainers.size(), 1u);  // the template's own "init"
}

TEST_F(TorchPluginTest, WaitForMasterDefaultsToBusybox) {
  const Pod p = created("worker", 0, {"--wait-master-enabled"});
  ASSERT_EQ(p.spec.initContainers.size(), 1u);
  EXPECT_EQ(p.spec.initContainers[0].image, "busybox:1.36.1");
  EXPECT_NE(p.spec.initContainers[0].command[2].find("TIMEOUT=300\n"), std::string::npos);
}

TEST_F(TorchPluginTest, PodCreateTwiceGivesTheSamePod) {
  Pod p = pod(job_, "worker", 1);
  FakeJobContext ctx(job_, info_, client_, {});
  ASSERT_TRUE(hooks().onPodCreate(ctx, p));
  const Pod once = p;
  ASSERT_TRUE(hooks().onPodCreate(ctx, p));
  EXPECT_EQ(p, once);
  EXPECT_TRUE(ctx.ledger.conflicts().empty());
}

TEST_F(TorchPluginTest, PipelinePodSetsCarryTheSharedEnvAndPodsEndUpInVolcanoOrder) {
  job_.spec.tasks[1].template_.spec.containers[0].env = {EnvVar::literal("USER_VAR", "x")};
  RuntimeInfo info = runtimeInfo(job_);
  const PluginArgs args = {"--wait-master-enabled"};
  ASSERT_TRUE(plugin_->mlPolicy()->enforceMLPolicy(info, args));
  EXPECT_EQ(envList(info.podSets[0].containers[0]), expectedEnv("23456", "3", "0"));
  Strings workerSet = {"USER_VAR=x"};
  for (const auto& e : expectedEnv("23456", "4", ""))
    if (e.rfind("RANK", 0) != 0) workerSet.push_back(e);
  EXPECT_EQ(envList(info.podSets[1].containers[0]), workerSet);
  EXPECT_EQ(info.podSets[1].initContainers.size(), 1u);
  EXPECT_TRUE(info.podSets[0].initContainers[0].env.empty());
  EXPECT_TRUE(info.ledger.conflicts().empty());

  for (const auto& [task, index] : std::vector<std::pair<std::string, int32_t>>{{"master", 0}, {"worker", 2},
                                                                                 {"data-prep", 0}}) {
    size_t s = task == "master" ? 0 : task == "worker" ? 1 : 2;
    Pod fromSet = pod(job_, info.podSets[s], index);
    FakeJobContext ctx(job_, info, client_, args);
    ASSERT_TRUE(hooks().onPodCreate(ctx, fromSet));
    EXPECT_EQ(fromSet, created(task, index, args)) << task;
  }
}

TEST_F(TorchPluginTest, ReservedTorchrunEnvIsRejectedWithTrainersMessageUnderTorch) {
  job_.spec.plugins = {{"torch", {}}};
  job_.spec.tasks[1].template_.spec.containers[1].env = {EnvVar::literal("PET_NNODES", "2"),
                                                         EnvVar::literal("RANK", "1"),
                                                         EnvVar::literal("PET_MASTER_PORT", "1")};
  const ValidationResult out = validate({});
  ASSERT_EQ(out.errors.size(), 1u);
  EXPECT_EQ(out.errors[0].field, "spec.tasks[1].template.spec.containers[1].env");
  EXPECT_EQ(out.errors[0].message, "must not have reserved envs, invalid envs configured: [PET_MASTER_PORT PET_NNODES]");
  EXPECT_TRUE(out.warnings.empty());
}

// Volcano's pytorch plugin sets no PET_* variable, so Volcano runs a job that sets one as written:
// under `pytorch` the job is admitted with a warning, and the job's value stays where the job put it,
// in the pipeline's pod set and in the pod, while the plugin still sets the rest (and RANK, which is
// Volcano's own, wins as on Volcano).
TEST_F(TorchPluginTest, UnderPytorchTheJobsTorchrunEnvIsKeptWithAWarning) {
  auto& sidecar = job_.spec.tasks[1].template_.spec.containers[1];
  sidecar.env = {EnvVar::literal("PET_NPROC_PER_NODE", "8"), EnvVar::literal("RANK", "mine"),
                 EnvVar::literal("OTHER", "y")};
  const ValidationResult out = validate({});
  EXPECT_TRUE(out.errors.empty());
  EXPECT_EQ(out.warnings, (Strings{"spec.tasks[1].template.spec.containers[1].env: sets PET_NPROC_PER_NODE, which "
                                   "the pytorch plugin would set for torchrun; the job's values are kept"}));

  Strings want = {"PET_NPROC_PER_NODE=8", "OTHER=y"};
  for (const auto& e : expectedEnv("23456", "4", "3"))
    if (e.rfind("PET_NPROC_PER_NODE=", 0) != 0) want.push_back(e);
  const Pod p = created("worker", 2);
  EXPECT_EQ(envList(p.spec.containers[1]), want);
  EXPECT_EQ(envList(p.spec.containers[0]), expectedEnv("23456", "4", "3"));  // another container: the plugin's

  RuntimeInfo info = runtimeInfo(job_);
  ASSERT_TRUE(plugin_->mlPolicy()->enforceMLPolicy(info, {}));
  const Strings set = envList(info.podSets[1].containers[1]);
  ASSERT_GE(set.size(), 2u);
  EXPECT_EQ(set[0], "PET_NPROC_PER_NODE=8");
  EXPECT_EQ(std::count(set.begin(), set.end(), "PET_NPROC_PER_NODE=8"), 1);
  EXPECT_TRUE(info.ledger.conflicts().empty());
  Pod fromSet = pod(job_, info.podSets[1], 2);
  FakeJobContext ctx(job_, info, client_, {});
  ASSERT_TRUE(hooks().onPodCreate(ctx, fromSet));
  EXPECT_EQ(fromSet, p);
}

TEST_F(TorchPluginTest, BadFlagsAreAdmissionWarningsUnderTheNameTheJobUses) {
  auto firstWarning = [](const ValidationResult& r) {
    EXPECT_TRUE(r.errors.empty());
    return r.warnings.size() == 1 ? r.warnings[0].substr(0, r.warnings[0].find(" (ignored")) : "";
  };
  EXPECT_EQ(firstWarning(validate({"--port=x"})),
            "spec.plugins.pytorch: plugin pytorch: invalid value \"x\" for flag -port: parse error");

  job_.spec.plugins = {{"torch", {}}};
  EXPECT_EQ(firstWarning(validate({"--nproc-per-node=gpu"})),
            "spec.plugins.torch: plugin torch: invalid value \"gpu\" for flag -nproc-per-node: must be auto or a "
            "positive integer");
  EXPECT_EQ(validate({"--nproc-per-node=0"}).warnings.size(), 1u);
  const ValidationResult good = validate({"--master", "m", "-worker=w", "--port", "1", "--wait-master-enabled=false",
                                          "--wait-master-timeout=5", "--wait-master-image=x", "--nproc-per-node=auto"});
  EXPECT_TRUE(good.errors.empty());
  EXPECT_TRUE(good.warnings.empty());
}

// End to end through the production loader (configured as Volcano's `pytorch` alias) and the sim
// cluster, with the svc plugin that mutation adds: a master whose template sets a hostname, dashed
// and zero-replica tasks, the worker init container, and the marker removed when the job is aborted.
TEST(TorchPluginJob, VolcanoPytorchJobGetsItsEnvPortsAndInitContainer) {
  PluginSource torch = shipped("torch");
  torch.aliases = {"pytorch"};
  Harness h({shipped("svc"), torch});
  ASSERT_TRUE(h.ok()) << h.loadError();
  ASSERT_TRUE(h.submit(R"(
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: demo, namespace: team-a}
spec:
  plugins: {pytorch: ["--master=main-node", "--worker=worker-node", "--wait-master-enabled"]}
  tasks:
    - name: main-node
      replicas: 1
      template:
        spec:
          hostname: head
          restartPolicy: Never
          containers: [{name: main, image: busybox, resources: {requests: {cpu: 1500m}}}]
    - name: worker-node
      replicas: 2
      template: {spec: {restartPolicy: Never, containers: [{name: main, image: busybox}]}}
    - name: eval
      replicas: 0
      template: {spec: {restartPolicy: Never, containers: [{name: main, image: busybox}]}}
)"));
  EXPECT_EQ(h.job().spec.plugins.count("svc"), 1u);
  EXPECT_EQ(h.podNames(), (Strings{"demo-main-node-0", "demo-worker-node-0", "demo-worker-node-1"}));
  auto tail = [](const Strings& env, size_t n) { return Strings(env.end() - static_cast<long>(n), env.end()); };
  const Strings master = h.pod("demo-main-node-0").envList();
  ASSERT_GE(master.size(), 9u);
  EXPECT_EQ(tail(master, 9), (Strings{"MASTER_ADDR=head.demo", "MASTER_PORT=23456", "WORLD_SIZE=3", "RANK=0",
                                      "PET_NNODES=3", "PET_NPROC_PER_NODE=2", "PET_NODE_RANK=0",
                                      "PET_MASTER_ADDR=head.demo", "PET_MASTER_PORT=23456"}));
  EXPECT_EQ(h.pod("demo-main-node-0").pod().spec.hostname, "head");
  EXPECT_TRUE(h.pod("demo-main-node-0").pod().spec.initContainers.empty());
  const PodView worker = h.pod("demo-worker-node-1");
  ASSERT_GE(worker.envList().size(), 9u);
  EXPECT_EQ(tail(worker.envList(), 9), (Strings{"MASTER_ADDR=head.demo", "MASTER_PORT=23456", "WORLD_SIZE=3",
                                                "RANK=2", "PET_NNODES=3", "PET_NPROC_PER_NODE=1",
                                                "PET_NODE_RANK=2", "PET_MASTER_ADDR=head.demo",
                                                "PET_MASTER_PORT=23456"}));
  EXPECT_EQ(worker.ports(), (std::vector<ContainerPort>{{"pytorchjob-port", 23456, "", 0, ""}}));
  const Container& wait = worker.initContainer("wait-for-master");
  EXPECT_EQ(wait.image, "busybox:1.36.1");
  ASSERT_EQ(wait.command.size(), 3u);
  EXPECT_EQ(wait.command[2].rfind("echo \"Waiting for master node head.demo:23456 to be ready...\"\nTIMEOUT=300\n", 0),
            0u);
  EXPECT_EQ(h.job().status.controlledResources.at("plugin-pytorch"), "pytorch");

  h.command("AbortJob");
  h.advance(1000);
  EXPECT_EQ(h.phase(), JobPhase::Aborted);
  EXPECT_EQ(h.job().status.controlledResources.count("plugin-pytorch"), 0u);
}

TEST(TorchPluginLoad, BadConfigDefaultArgsFailTheLoad) {
  Harness loaded({shipped("torch", {"--nproc-per-node=many"})});
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.loadError().find("invalid value \"many\" for flag -nproc-per-node"), std::string::npos)
      << loaded.loadError();
}

}  // namespace
}  // namespace jobhost::testing
