// Tests of the mpi plugin's real .so: MPI_HOST and OMPI_MCA_* env in order, ports, the hostfile
// ConfigMap byte for byte and its mount, pipeline/hook agreement, hooks and cleanup, validation.
#include <gtest/gtest.h>

#include <jobhost/testing/testing.h>

namespace jobhost::testing {
namespace {

using Strings = std::vector<std::string>;

const ContainerPort kSshPort = {"mpijob-port", 22, "", 0, ""};

Strings masterEnv(const std::string& hosts, const std::string& slots = "1", const std::string& rshArgs = "") {
  return {"MPI_HOST=" + hosts, "OMPI_MCA_orte_default_hostfile=/etc/mpi/hostfile",
          "OMPI_MCA_orte_keep_fqdn_hostnames=true", "OMPI_MCA_orte_set_default_slots=" + slots,
          "OMPI_MCA_plm_rsh_args=-o ConnectionAttempts=10" + rshArgs};
}

class MpiPluginTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(h_.ok()) << h_.loadError();
    plugin_ = &h_.plugin("mpi");
    job_.spec.tasks[0].template_.spec.initContainers = {container("init")};
  }
  JobHooksPlugin& hooks() { return *plugin_->jobHooks(); }
  Pod created(const std::string& task, int32_t index, const PluginArgs& args = {}) {
    Pod p = pod(job_, task, index);
    FakeJobContext ctx(job_, info_, client_, args);
    EXPECT_TRUE(hooks().onPodCreate(ctx, p));
    return p;
  }
  Components build(const PluginArgs& args = {}) {
    Components out;
    EXPECT_TRUE(plugin_->componentBuild()->build(info_, args, out));
    return out;
  }
  ValidationResult validate(const PluginArgs& args) {
    ValidationResult out;
    EXPECT_TRUE(plugin_->validation()->validate(job_, nullptr, args, out));
    return out;
  }

  Harness h_{{shipped("mpi")}};
  PluginInstance* plugin_ = nullptr;
  Job job_ = job("demo", {task("master", 1), task("worker", 2, {container("main"), container("sidecar")})},
                 {{"mpi", {}}, {"ssh", {}}, {"svc", {}}});
  RuntimeInfo info_ = runtimeInfo(job_);
  FakeResourceClient client_;
};

TEST_F(MpiPluginTest, ReportsItsPoints) {
  EXPECT_EQ(h_.capabilities("mpi"), kValidation | kMLPolicy | kComponentBuild | kJobHooks);
}

TEST_F(MpiPluginTest, MasterGetsWorkerHostsOpenMpiEnvPortAndHostfileMount) {
  const Pod p = created("master", 0);
  for (const auto* c : {&p.spec.initContainers[0], &p.spec.containers[0]}) {
    EXPECT_EQ(envList(*c), masterEnv("demo-worker-0.demo,demo-worker-1.demo")) << c->name;
    EXPECT_EQ(c->ports, std::vector<ContainerPort>{kSshPort}) << c->name;
    ASSERT_EQ(c->volumeMounts.size(), 1u) << c->name;
    EXPECT_EQ(c->volumeMounts[0].name, "mpi-hostfile");
    EXPECT_EQ(c->volumeMounts[0].mountPath, "/etc/mpi");
  }
  ASSERT_EQ(p.spec.volumes.size(), 1u);
  EXPECT_EQ(p.spec.volumes[0].name, "mpi-hostfile");
  ASSERT_TRUE(p.spec.volumes[0].configMap);
  EXPECT_EQ(p.spec.volumes[0].configMap->name, "demo-mpi-hostfile");
  EXPECT_EQ(p.spec.volumes[0].configMap->items, (std::vector<KeyToPath>{{"hostfile", "hostfile", 0444}}));
}

TEST_F(MpiPluginTest, WorkersGetThePortOnly) {
  const Pod p = created("worker", 1, {"--port=2222"});
  for (const auto& c : p.spec.containers) {
    EXPECT_TRUE(c.env.empty());
    EXPECT_EQ(c.ports, (std::vector<ContainerPort>{{"mpijob-port", 2222, "", 0, ""}}));
    EXPECT_TRUE(c.volumeMounts.empty());
  }
  EXPECT_TRUE(p.spec.volumes.empty());
}

TEST_F(MpiPluginTest, BuildsOneHostfileLinePerWorker) {
  const Components out = build({"--slots=4"});
  ASSERT_EQ(out.configMaps.size(), 1u);
  const ConfigMap& cm = out.configMaps[0];
  EXPECT_EQ(cm.metadata.name, "demo-mpi-hostfile");
  EXPECT_EQ(cm.metadata.namespace_, "team-a");
  EXPECT_EQ(cm.metadata.ownerReferences,
            (std::vector<OwnerReference>{{"batch.volcano.sh/v1alpha1", "Job", "demo", "uid-1", true, true}}));
  EXPECT_EQ(cm.data, (std::map<std::string, std::string>{
                         {"hostfile", "demo-worker-0.demo slots=4\ndemo-worker-1.demo slots=4\n"}}));
  EXPECT_TRUE(out.secrets.empty() && out.services.empty() && out.networkPolicies.empty());
  EXPECT_EQ(envList(created("master", 0, {"--slots=4"}).spec.containers[0]),
            masterEnv("demo-worker-0.demo,demo-worker-1.demo", "4"));
}

TEST_F(MpiPluginTest, ZeroWorkersGiveAnEmptyHostList) {
  job_.spec.tasks[1].replicas = 0;
  EXPECT_EQ(envList(created("master", 0).spec.containers[0]), masterEnv(""));
  EXPECT_EQ(build().configMaps[0].data.at("hostfile"), "");
}

TEST_F(MpiPluginTest, TemplateHostnameGivesASingleWorkerHost) {
  job_.spec.tasks[1].template_.spec.hostname = "node";
  job_.spec.tasks[1].template_.spec.subdomain = "fabric";
  EXPECT_EQ(envList(created("master", 0).spec.containers[0]), masterEnv("node.fabric"));
  EXPECT_EQ(build().configMaps[0].data.at("hostfile"), "node.fabric slots=1\n");
}

TEST_F(MpiPluginTest, TaskNamesWithDashes) {
  job_ = job("demo", {task("mpi-launcher", 1), task("mpi-node", 2)}, {{"mpi", {}}});
  const PluginArgs args = {"--master=mpi-launcher", "--worker", "mpi-node"};
  EXPECT_EQ(envList(created("mpi-launcher", 0, args).spec.containers[0]),
            masterEnv("demo-mpi-node-0.demo,demo-mpi-node-1.demo"));
  EXPECT_EQ(build(args).configMaps[0].data.at("hostfile"),
            "demo-mpi-node-0.demo slots=1\ndemo-mpi-node-1.demo slots=1\n");
}

// Trainer's slots rule: without --slots, a worker pod's GPUs (requests, else limits, any resource
// whose name holds "gpu") become the slots when there are more than one; --slots always wins.
TEST_F(MpiPluginTest, SlotsFollowTheWorkersGpusUnlessGiven) {
  auto& workers = job_.spec.tasks[1].template_.spec.containers;
  workers[0].resources.limits["nvidia.com/gpu"] = *Quantity::parse("4");
  workers[1].resources.requests["amd.com/GPU"] = *Quantity::parse("2");
  workers[1].resources.limits["amd.com/GPU"] = *Quantity::parse("3");
  const std::string six = "demo-worker-0.demo slots=6\ndemo-worker-1.demo slots=6\n";
  EXPECT_EQ(build().configMaps[0].data.at("hostfile"), six);
  EXPECT_EQ(envList(created("master", 0).spec.containers[0]), masterEnv("demo-worker-0.demo,demo-worker-1.demo", "6"));
  EXPECT_EQ(build({"--slots=1"}).configMaps[0].data.at("hostfile"),
            "demo-worker-0.demo slots=1\ndemo-worker-1.demo slots=1\n");
  EXPECT_EQ(envList(created("master", 0, {"--slots", "2"}).spec.containers[0]),
            masterEnv("demo-worker-0.demo,demo-worker-1.demo", "2"));
  EXPECT_EQ(build({"--slots=0"}).configMaps[0].data.at("hostfile"), six);  // ignored: as if not given

  workers[0].resources.limits.clear();
  workers[1].resources = {};
  workers[1].resources.limits["nvidia.com/gpu"] = *Quantity::parse("1");  // one GPU: slots stay 1
  EXPECT_EQ(build().configMaps[0].data.at("hostfile"), "demo-worker-0.demo slots=1\ndemo-worker-1.demo slots=1\n");
}

// --run-launcher-as-node (Trainer's runLauncherAsNode): the master's hosts are in the hostfile too,
// in task order; MPI_HOST stays Volcano's worker list.
TEST_F(MpiPluginTest, LauncherAsNodeListsTheMasterHostsInTaskOrder) {
  const std::string both = "demo-master-0.demo slots=1\ndemo-worker-0.demo slots=1\ndemo-worker-1.demo slots=1\n";
  EXPECT_EQ(build({"--run-launcher-as-node"}).configMaps[0].data.at("hostfile"), both);
  EXPECT_EQ(build({"-runLauncherAsNode=true"}).configMaps[0].data.at("hostfile"), both);
  EXPECT_EQ(build({"--run-launcher-as-node=false"}).configMaps[0].data.at("hostfile"),
            "demo-worker-0.demo slots=1\ndemo-worker-1.demo slots=1\n");
  EXPECT_EQ(envList(created("master", 0, {"--run-launcher-as-node"}).spec.containers[0]),
            masterEnv("demo-worker-0.demo,demo-worker-1.demo"));
  EXPECT_TRUE(validate({"--run-launcher-as-node"}).errors.empty());

  std::swap(job_.spec.tasks[0], job_.spec.tasks[1]);
  EXPECT_EQ(build({"--run-launcher-as-node", "--slots=2"}).configMaps[0].data.at("hostfile"),
            "demo-worker-0.demo slots=2\ndemo-worker-1.demo slots=2\ndemo-master-0.demo slots=2\n");

  // Without a worker task the launcher is the only node: one master replica runs alone (no hostfile,
  // as without the flag); more are Trainer's numNodes >= 2 without a node pod set.
  job_ = job("demo", {task("master", 1)}, {{"mpi", {"--run-launcher-as-node"}}});
  EXPECT_TRUE(validate({"--run-launcher-as-node"}).errors.empty());
  EXPECT_TRUE(build({"--run-launcher-as-node"}).configMaps.empty());
  job_ = job("demo", {task("master", 2)}, {{"mpi", {"--run-launcher-as-node"}}});
  const ValidationResult out = validate({"--run-launcher-as-node"});
  ASSERT_EQ(out.errors.size(), 1u);
  EXPECT_EQ(out.errors[0].field, "spec.tasks[0].replicas");
  EXPECT_EQ(out.errors[0].message,
            "must have 1 when MPI trainingRuntime with enabled runLauncherAsNode does not have either launcher and "
            "node");
  EXPECT_TRUE(validate({}).errors.empty());
}

TEST_F(MpiPluginTest, WithoutAWorkerTaskTheMasterIsUntouchedAndNoHostfileIsBuilt) {
  job_ = job("demo", {task("master", 1), task("ps", 1)}, {{"mpi", {}}});
  EXPECT_EQ(created("master", 0), pod(job_, "master", 0));
  EXPECT_EQ(created("ps", 0).spec.containers[0].ports, std::vector<ContainerPort>{kSshPort});
  EXPECT_TRUE(build().empty());
}

TEST_F(MpiPluginTest, PodCreateTwiceGivesTheSamePod) {
  Pod p = pod(job_, "master", 0);
  FakeJobContext ctx(job_, info_, client_, {});
  ASSERT_TRUE(hooks().onPodCreate(ctx, p));
  const Pod once = p;
  ASSERT_TRUE(hooks().onPodCreate(ctx, p));
  EXPECT_EQ(p, once);
  EXPECT_TRUE(ctx.ledger.conflicts().empty());
}

TEST_F(MpiPluginTest, PipelinePodSetsCarryEverythingAndPodsMatchTheHookOnlyPath) {
  job_.spec.tasks[0].template_.spec.containers[0].env = {EnvVar::literal("USER_VAR", "x")};
  RuntimeInfo info = runtimeInfo(job_);
  ASSERT_TRUE(plugin_->mlPolicy()->enforceMLPolicy(info, {}));
  Strings master = {"USER_VAR=x"};
  for (const auto& e : masterEnv("demo-worker-0.demo,demo-worker-1.demo")) master.push_back(e);
  EXPECT_EQ(envList(info.podSets[0].containers[0]), master);
  EXPECT_EQ(info.podSets[0].volumes.size(), 1u);
  EXPECT_EQ(info.podSets[1].containers[1].ports, std::vector<ContainerPort>{kSshPort});
  for (const auto& [task, s] : std::vector<std::pair<std::string, size_t>>{{"master", 0}, {"worker", 1}}) {
    Pod fromSet = pod(job_, info.podSets[s], 0);
    FakeJobContext ctx(job_, info, client_, {});
    ASSERT_TRUE(hooks().onPodCreate(ctx, fromSet));
    EXPECT_EQ(fromSet, created(task, 0)) << task;
  }
}

TEST_F(MpiPluginTest, JobAddCreatesTheBuiltHostfileOnceAndUpdateFollowsScaling) {
  FakeJobContext ctx(job_, info_, client_, {}, build());
  ASSERT_TRUE(hooks().onJobAdd(ctx));
  ASSERT_TRUE(hooks().onJobAdd(ctx));
  EXPECT_EQ(client_.calls, Strings{"apply ConfigMap demo-mpi-hostfile"});
  EXPECT_EQ(client_.configMaps.at("demo-mpi-hostfile"), build().configMaps[0]);
  EXPECT_EQ(job_.status.controlledResources, (std::map<std::string, std::string>{{"plugin-mpi", "mpi"}}));

  ASSERT_TRUE(hooks().onJobUpdate(ctx));
  EXPECT_EQ(client_.calls.size(), 1u);
  job_.spec.tasks[1].replicas = 3;
  ASSERT_TRUE(hooks().onJobUpdate(ctx));
  ASSERT_TRUE(hooks().onJobUpdate(ctx));
  EXPECT_EQ(client_.calls.size(), 2u);
  EXPECT_EQ(client_.configMaps.at("demo-mpi-hostfile").data.at("hostfile"),
            "demo-worker-0.demo slots=1\ndemo-worker-1.demo slots=1\ndemo-worker-2.demo slots=1\n");
}

// ComponentBuild ran when the job was admitted; a job scaled since (then restarted: OnJobDelete,
// OnJobAdd) gets the hostfile of its current workers, like svc's hosts and MPI_HOST.
TEST_F(MpiPluginTest, JobAddWritesTheHostfileOfTheJobAsItIsNowNotOfAnOlderBuild) {
  const Components built = build();
  job_.spec.tasks[1].replicas = 3;
  FakeJobContext ctx(job_, info_, client_, {}, built);
  ASSERT_TRUE(hooks().onJobAdd(ctx));
  EXPECT_EQ(client_.configMaps.at("demo-mpi-hostfile").data.at("hostfile"),
            "demo-worker-0.demo slots=1\ndemo-worker-1.demo slots=1\ndemo-worker-2.demo slots=1\n");
  EXPECT_EQ(client_.configMaps.at("demo-mpi-hostfile").metadata, built.configMaps[0].metadata);
}

TEST_F(MpiPluginTest, JobDeleteRemovesTheHostfileOnceAndUpdateThenLeavesItAlone) {
  FakeJobContext ctx(job_, info_, client_, {});
  ASSERT_TRUE(hooks().onJobAdd(ctx));
  client_.calls.clear();
  ASSERT_TRUE(hooks().onJobDelete(ctx));
  ASSERT_TRUE(hooks().onJobDelete(ctx));
  ASSERT_TRUE(hooks().onJobUpdate(ctx));
  EXPECT_EQ(client_.calls, Strings{"remove ConfigMap demo-mpi-hostfile"});
  EXPECT_TRUE(client_.configMaps.empty());
  EXPECT_TRUE(job_.status.controlledResources.empty());
}

TEST_F(MpiPluginTest, MissingMasterIsLeftToHostAdmission) {
  EXPECT_TRUE(validate({"--master=launcher"}).errors.empty());  // the webhook rule reports it once
  EXPECT_TRUE(validate({}).errors.empty());
}

// Volcano's mpi plugin sets no OMPI_MCA_* variable, so Volcano runs a job that sets one as written:
// the job is admitted with a warning per master container, and each container keeps the job's
// values where the job put them while the plugin still sets the rest (a worker's env is not the
// plugin's concern), in the pipeline's pod set and in the pod alike.
TEST_F(MpiPluginTest, OpenMpiEnvTheMasterSetsIsKeptWithAWarning) {
  job_.spec.tasks[0].template_.spec.initContainers[0].env = {
      EnvVar::literal("OMPI_MCA_plm_rsh_args", "-p 2222"), EnvVar::literal("OMPI_MCA_orte_default_hostfile", "y")};
  job_.spec.tasks[1].template_.spec.containers[0].env = {EnvVar::literal("OMPI_MCA_plm_rsh_args", "x")};
  const ValidationResult out = validate({});
  EXPECT_TRUE(out.errors.empty());
  EXPECT_EQ(out.warnings, (Strings{"spec.tasks[0].template.spec.initContainers[0].env: sets OMPI_MCA_orte_default_hostfile "
                                   "OMPI_MCA_plm_rsh_args, which the mpi plugin would set for OpenMPI; the job's values "
                                   "are kept"}));

  const Pod p = created("master", 0);
  const Strings all = masterEnv("demo-worker-0.demo,demo-worker-1.demo");
  EXPECT_EQ(envList(p.spec.initContainers[0]),
            (Strings{"OMPI_MCA_plm_rsh_args=-p 2222", "OMPI_MCA_orte_default_hostfile=y", all[0], all[2], all[3]}));
  EXPECT_EQ(envList(p.spec.containers[0]), all);
  EXPECT_EQ(envList(created("worker", 0).spec.containers[0]), Strings{"OMPI_MCA_plm_rsh_args=x"});

  RuntimeInfo info = runtimeInfo(job_);
  ASSERT_TRUE(plugin_->mlPolicy()->enforceMLPolicy(info, {}));
  EXPECT_EQ(envList(info.podSets[0].initContainers[0]), envList(p.spec.initContainers[0]));
  EXPECT_TRUE(info.ledger.conflicts().empty());
  Pod fromSet = pod(job_, info.podSets[0], 0);
  FakeJobContext ctx(job_, info, client_, {});
  ASSERT_TRUE(hooks().onPodCreate(ctx, fromSet));
  EXPECT_EQ(fromSet, p);
}

TEST_F(MpiPluginTest, BadFlagsAreAdmissionWarningsNamingPluginAndFlag) {
  const ValidationResult slots = validate({"--slots=0"});
  EXPECT_TRUE(slots.errors.empty());
  EXPECT_EQ(slots.warnings, std::vector<std::string>{"spec.plugins.mpi: plugin mpi: invalid value \"0\" for flag -slots: "
                                                     "must be >= 1 (ignored as on Volcano: flags before it apply, flags after it keep "
                                                     "their defaults, and a value that does not parse is set as Go sets it: "
                                                     "0, false or the bound it passed)"});
  const ValidationResult port = validate({"-port=ssh"});
  EXPECT_TRUE(port.errors.empty());
  ASSERT_EQ(port.warnings.size(), 1u);
  EXPECT_EQ(port.warnings[0].substr(0, port.warnings[0].find(" (ignored")),
            "spec.plugins.mpi: plugin mpi: invalid value \"ssh\" for flag -port: parse error");
  const ValidationResult good = validate({"--master=master", "--worker", "worker", "--port=22", "--slots", "8"});
  EXPECT_TRUE(good.errors.empty());
  EXPECT_TRUE(good.warnings.empty());
}

// End to end through the production loader and the sim cluster, with the svc and ssh plugins that
// mutation adds: a multi-task job with dashed task names and a zero-replica task, the hostfile, the
// launcher's env and mounts, the workers' port, and the cleanup when the job is aborted.
TEST(MpiPluginJob, LauncherWorkersHostfileAndCleanupOnAbort) {
  Harness h({shipped("svc"), shipped("ssh"), shipped("mpi")});
  ASSERT_TRUE(h.ok()) << h.loadError();
  ASSERT_TRUE(h.submit(R"(
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: demo, namespace: team-a}
spec:
  plugins: {mpi: ["--master=mpi-launcher", "--worker", "mpi-node", "-port=2222", "--slots=4"]}
  tasks:
    - name: mpi-launcher
      replicas: 1
      template:
        spec:
          restartPolicy: Never
          initContainers: [{name: init, image: busybox}]
          containers: [{name: main, image: busybox}]
    - name: mpi-node
      replicas: 2
      template: {spec: {restartPolicy: Never, containers: [{name: main, image: busybox}]}}
    - name: idle
      replicas: 0
      template: {spec: {restartPolicy: Never, containers: [{name: main, image: busybox}]}}
)"));
  EXPECT_EQ(h.job().spec.plugins.count("svc"), 1u);
  EXPECT_EQ(h.job().spec.plugins.count("ssh"), 1u);
  EXPECT_EQ(h.configMap("demo-mpi-hostfile").data,
            (std::map<std::string, std::string>{
                {"hostfile", "demo-mpi-node-0.demo slots=4\ndemo-mpi-node-1.demo slots=4\n"}}));

  EXPECT_EQ(h.podNames(), (Strings{"demo-mpi-launcher-0", "demo-mpi-node-0", "demo-mpi-node-1"}));
  const PodView launcher = h.pod("demo-mpi-launcher-0");
  // --port 2222: mpirun's ssh must go there too.
  const Strings want = masterEnv("demo-mpi-node-0.demo,demo-mpi-node-1.demo", "4", " -p 2222");
  for (const Container* c : {&launcher.container("main"), &launcher.initContainer("init")}) {
    const Strings env = envList(*c);
    ASSERT_GE(env.size(), want.size()) << c->name;
    EXPECT_EQ(Strings(env.end() - static_cast<long>(want.size()), env.end()), want) << c->name;
    EXPECT_EQ(c->ports, (std::vector<ContainerPort>{{"mpijob-port", 2222, "", 0, ""}})) << c->name;
  }
  ASSERT_NE(launcher.mount("/etc/mpi"), nullptr);
  EXPECT_EQ(launcher.mount("/etc/mpi")->name, "mpi-hostfile");
  ASSERT_NE(launcher.volume("mpi-hostfile"), nullptr);
  EXPECT_EQ(launcher.volume("mpi-hostfile")->configMap->name, "demo-mpi-hostfile");
  const PodView node = h.pod("demo-mpi-node-1");
  EXPECT_EQ(node.env("MPI_HOST"), std::nullopt);
  EXPECT_EQ(node.env("OMPI_MCA_orte_default_hostfile"), std::nullopt);
  EXPECT_EQ(node.mount("/etc/mpi"), nullptr);
  EXPECT_EQ(node.ports(), (std::vector<ContainerPort>{{"mpijob-port", 2222, "", 0, ""}}));
  EXPECT_EQ(h.job().status.controlledResources.at("plugin-mpi"), "mpi");

  h.command("AbortJob");
  h.advance(1000);
  EXPECT_EQ(h.phase(), JobPhase::Aborted);
  EXPECT_TRUE(h.resources().empty());
  for (const char* marker : {"plugin-mpi", "plugin-ssh", "plugin-svc"})
    EXPECT_EQ(h.job().status.controlledResources.count(marker), 0u) << marker;
}

// On the sim cluster, which versions ConfigMaps: the svc hosts ConfigMap and the hostfile, once
// found intact, are not compared again while nobody writes them; one edited or deleted behind the
// plugins' back is written again at the job's next Running sync (OnJobUpdate; here, the sync of a
// pod's eviction).
TEST(MpiPluginJob, HostsAndHostfileEditedOrDeletedOnTheClusterAreWrittenBackAtTheNextSync) {
  Harness h({shipped("svc"), shipped("ssh"), shipped("mpi")});
  ASSERT_TRUE(h.ok()) << h.loadError();
  ASSERT_TRUE(h.submit(R"(
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: demo, namespace: team-a}
spec:
  plugins: {mpi: []}
  tasks:
    - {name: master, replicas: 1, template: {spec: {containers: [{name: main, image: busybox}]}}}
    - {name: worker, replicas: 3, template: {spec: {containers: [{name: main, image: busybox}]}}}
)"));
  h.advance(2000);
  ASSERT_EQ(h.phase(), JobPhase::Running);
  const ConfigMap hosts = h.configMap("demo-svc");
  const ConfigMap hostfile = h.configMap("demo-mpi-hostfile");
  Components edited{{hosts, hostfile}, {}, {}, {}};
  edited.configMaps[0].data["worker.host"] = "edited";
  edited.configMaps[1].data["hostfile"] = "edited\n";
  h.writeObjects(edited);
  ASSERT_EQ(h.configMap("demo-svc").data.at("worker.host"), "edited");
  h.evict("demo-worker-2");
  EXPECT_EQ(h.configMap("demo-svc"), hosts);
  EXPECT_EQ(h.configMap("demo-mpi-hostfile"), hostfile);
  h.advance(2000);  // the new worker runs: the job is Running again (a Pending sync runs OnJobAdd,
  ASSERT_EQ(h.phase(), JobPhase::Running);  // which the plugins' markers make skip, as in Volcano)

  h.deleteObject(ObjectKind::ConfigMap, "demo-mpi-hostfile");
  EXPECT_THROW(h.deleteObject(ObjectKind::ConfigMap, "demo-mpi-hostfile"), std::out_of_range);
  h.evict("demo-worker-1");
  EXPECT_EQ(h.configMap("demo-mpi-hostfile"), hostfile);
  EXPECT_EQ(h.configMap("demo-svc"), hosts);
  EXPECT_TRUE(h.syncErrors().empty());
}

}  // namespace
}  // namespace jobhost::testing
