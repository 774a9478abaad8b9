// Tests of the svc plugin's real .so: the `<job>-svc` ConfigMap byte for byte, Service and
// NetworkPolicy, pod hostname/env/mount, PodNetwork endpoints, hook idempotency and cleanup, flags,
// and the per-job data it keeps (never stale after spec, args or cluster changes).
#include <gtest/gtest.h>

#include <jobhost/testing/testing.h>

namespace jobhost::testing {
namespace {

using Strings = std::vector<std::string>;
using Data = std::map<std::string, std::string>;

TaskSpec fixedHostTask() {
  TaskSpec t = task("fixed", 2);
  t.template_.spec.hostname = "fixed-host";
  t.template_.spec.subdomain = "custom";
  return t;
}

OwnerReference jobOwner() {
  return {"batch.volcano.sh/v1alpha1", "Job", "demo", "uid-1", true, true};
}

class SvcPluginTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(h_.ok()) << h_.loadError();
    plugin_ = &h_.plugin("svc");
    job_.spec.tasks[0].template_.spec.initContainers = {container("init")};
  }
  JobHooksPlugin& hooks() { return *plugin_->jobHooks(); }
  Components build(const PluginArgs& args) {
    Components out;
    EXPECT_TRUE(plugin_->componentBuild()->build(info_, args, out));
    return out;
  }

  Harness h_{{shipped("svc")}};
  PluginInstance* plugin_ = nullptr;
  Job job_ = job("demo",
                 {task("ps-main", 2, {container("main", {EnvVar::literal("USER_VAR", "x")}), container("sidecar")}),
                  task("worker", 3), fixedHostTask(), task("idle", 0)},
                 {{"svc", {}}});
  RuntimeInfo info_ = runtimeInfo(job_);
  FakeResourceClient client_;
};

const Data kHosts = {
    {"ps_main.host", "demo-ps-main-0.demo\ndemo-ps-main-1.demo"},
    {"VC_PS_MAIN_HOSTS", "demo-ps-main-0.demo,demo-ps-main-1.demo"},
    {"VC_PS_MAIN_NUM", "2"},
    {"worker.host", "demo-worker-0.demo\ndemo-worker-1.demo\ndemo-worker-2.demo"},
    {"VC_WORKER_HOSTS", "demo-worker-0.demo,demo-worker-1.demo,demo-worker-2.demo"},
    {"VC_WORKER_NUM", "3"},
    {"fixed.host", "fixed-host.custom"},
    {"VC_FIXED_HOSTS", "fixed-host.custom"},
    {"VC_FIXED_NUM", "1"},
    {"idle.host", ""},
    {"VC_IDLE_HOSTS", ""},
    {"VC_IDLE_NUM", "0"},
};

const Strings kHostsEnv = {
    "VC_PS_MAIN_HOSTS<-configMap:demo-svc/VC_PS_MAIN_HOSTS", "VC_PS_MAIN_NUM<-configMap:demo-svc/VC_PS_MAIN_NUM",
    "VC_WORKER_HOSTS<-configMap:demo-svc/VC_WORKER_HOSTS",   "VC_WORKER_NUM<-configMap:demo-svc/VC_WORKER_NUM",
    "VC_FIXED_HOSTS<-configMap:demo-svc/VC_FIXED_HOSTS",     "VC_FIXED_NUM<-configMap:demo-svc/VC_FIXED_NUM",
    "VC_IDLE_HOSTS<-configMap:demo-svc/VC_IDLE_HOSTS",       "VC_IDLE_NUM<-configMap:demo-svc/VC_IDLE_NUM",
};

TEST_F(SvcPluginTest, ReportsItsPoints) {
  EXPECT_EQ(h_.capabilities("svc"), kValidation | kPodNetwork | kComponentBuild | kJobHooks);
}

TEST_F(SvcPluginTest, BuildsHostsConfigMapServiceAndNetworkPolicy) {
  const Components out = build({});
  ASSERT_EQ(out.configMaps.size(), 1u);
  const ConfigMap& cm = out.configMaps[0];
  EXPECT_EQ(cm.metadata.name, "demo-svc");
  EXPECT_EQ(cm.metadata.namespace_, "team-a");
  EXPECT_EQ(cm.metadata.ownerReferences, std::vector<OwnerReference>{jobOwner()});
  EXPECT_EQ(cm.data, kHosts);

  const StringMap selector = {{"volcano.sh/job-name", "demo"}, {"volcano.sh/job-namespace", "team-a"}};
  ASSERT_EQ(out.services.size(), 1u);
  const Service& svc = out.services[0];
  EXPECT_EQ(svc.metadata.name, "demo");
  EXPECT_EQ(svc.metadata.ownerReferences, std::vector<OwnerReference>{jobOwner()});
  EXPECT_EQ(svc.spec.clusterIP, "None");
  EXPECT_EQ(svc.spec.selector, selector);
  EXPECT_TRUE(svc.spec.ports.empty());
  EXPECT_FALSE(svc.spec.publishNotReadyAddresses);

  ASSERT_EQ(out.networkPolicies.size(), 1u);
  const NetworkPolicy& np = out.networkPolicies[0];
  EXPECT_EQ(np.metadata.name, "demo");
  EXPECT_EQ(np.metadata.ownerReferences, std::vector<OwnerReference>{jobOwner()});
  EXPECT_EQ(np.spec.podSelector.matchLabels, selector);
  ASSERT_EQ(np.spec.ingress.size(), 1u);
  ASSERT_EQ(np.spec.ingress[0].from.size(), 1u);
  ASSERT_TRUE(np.spec.ingress[0].from[0].podSelector);
  EXPECT_EQ(np.spec.ingress[0].from[0].podSelector->matchLabels, selector);
  EXPECT_FALSE(np.spec.ingress[0].from[0].namespaceSelector);
  EXPECT_EQ(np.spec.policyTypes, Strings{"Ingress"});
}

TEST_F(SvcPluginTest, FlagsChangeServiceAndDropNetworkPolicy) {
  const Components out = build({"--publish-not-ready-addresses", "-disable-network-policy=true"});
  ASSERT_EQ(out.services.size(), 1u);
  EXPECT_TRUE(out.services[0].spec.publishNotReadyAddresses);
  EXPECT_TRUE(out.networkPolicies.empty());
  EXPECT_EQ(out.configMaps.size(), 1u);
}

TEST_F(SvcPluginTest, PodNetworkSetsSubdomainAndOneEndpointPerPod) {
  ASSERT_TRUE(plugin_->podNetwork()->identifyPodNetwork(info_, {}));
  EXPECT_EQ(info_.podSets[0].subdomain, "demo");
  EXPECT_EQ(info_.podSets[0].endpoints, (Strings{"demo-ps-main-0.demo", "demo-ps-main-1.demo"}));
  EXPECT_EQ(info_.podSets[1].endpoints,
            (Strings{"demo-worker-0.demo", "demo-worker-1.demo", "demo-worker-2.demo"}));
  EXPECT_EQ(info_.podSets[2].subdomain, "custom");
  EXPECT_EQ(info_.podSets[2].endpoints, (Strings{"fixed-host.custom", "fixed-host.custom"}));
  EXPECT_TRUE(info_.podSets[3].endpoints.empty());
}

TEST_F(SvcPluginTest, PodGetsHostnameHostsEnvAndConfigMapMount) {
  Pod p = pod(job_, "ps-main", 1);
  FakeJobContext ctx(job_, info_, client_, {});
  ASSERT_TRUE(hooks().onPodCreate(ctx, p));
  EXPECT_EQ(p.spec.hostname, "demo-ps-main-1");
  EXPECT_EQ(p.spec.subdomain, "demo");
  Strings main = {"USER_VAR=x"};
  main.insert(main.end(), kHostsEnv.begin(), kHostsEnv.end());
  EXPECT_EQ(envList(p.spec.containers[0]), main);
  EXPECT_EQ(envList(p.spec.containers[1]), kHostsEnv);
  EXPECT_EQ(envList(p.spec.initContainers[0]), kHostsEnv);

  ASSERT_EQ(p.spec.volumes.size(), 1u);
  EXPECT_EQ(p.spec.volumes[0].name, "demo-svc");
  ASSERT_TRUE(p.spec.volumes[0].configMap);
  EXPECT_EQ(p.spec.volumes[0].configMap->name, "demo-svc");
  EXPECT_TRUE(p.spec.volumes[0].configMap->items.empty());
  EXPECT_FALSE(p.spec.volumes[0].configMap->defaultMode);
  for (const auto* c : {&p.spec.containers[0], &p.spec.containers[1], &p.spec.initContainers[0]}) {
    ASSERT_EQ(c->volumeMounts.size(), 1u) << c->name;
    EXPECT_EQ(c->volumeMounts[0].name, "demo-svc");
    EXPECT_EQ(c->volumeMounts[0].mountPath, "/etc/volcano");
    EXPECT_EQ(c->volumeMounts[0].subPath, "");
  }
}

// Volcano appends the hosts env: it ends every container's env in task order even when the
// template already set one of those names (upserting in place would leave it first).
TEST_F(SvcPluginTest, InjectedHostsEnvEndsTheEnvInTaskOrderEvenWhenTheTemplateSetsIt) {
  job_.spec.tasks[1].template_.spec.containers[0].env = {EnvVar::literal("VC_WORKER_NUM", "stale"),
                                                         EnvVar::literal("USER_VAR", "x")};
  Pod p = pod(job_, "worker", 2);
  FakeJobContext ctx(job_, info_, client_, {});
  ASSERT_TRUE(hooks().onPodCreate(ctx, p));
  Strings want = {"USER_VAR=x"};
  want.insert(want.end(), kHostsEnv.begin(), kHostsEnv.end());
  EXPECT_EQ(envList(p.spec.containers[0]), want);
  const Pod once = p;
  ASSERT_TRUE(hooks().onPodCreate(ctx, p));
  EXPECT_EQ(p, once);
}

TEST_F(SvcPluginTest, TemplateHostnameAndSubdomainAreKept) {
  Pod p = pod(job_, "fixed", 1);
  FakeJobContext ctx(job_, info_, client_, {});
  ASSERT_TRUE(hooks().onPodCreate(ctx, p));
  EXPECT_EQ(p.spec.hostname, "fixed-host");
  EXPECT_EQ(p.spec.subdomain, "custom");
}

TEST_F(SvcPluginTest, InjectHostsEnvFalseKeepsTheMountOnly) {
  Pod p = pod(job_, "worker", 0);
  FakeJobContext ctx(job_, info_, client_, {"--inject-hosts-env=false"});
  ASSERT_TRUE(hooks().onPodCreate(ctx, p));
  EXPECT_TRUE(p.spec.containers[0].env.empty());
  EXPECT_EQ(p.spec.volumes.size(), 1u);
  EXPECT_EQ(p.spec.containers[0].volumeMounts.size(), 1u);
}

TEST_F(SvcPluginTest, PodCreateTwiceGivesTheSamePod) {
  Pod p = pod(job_, "ps-main", 0);
  FakeJobContext ctx(job_, info_, client_, {});
  ASSERT_TRUE(hooks().onPodCreate(ctx, p));
  const Pod once = p;
  ASSERT_TRUE(hooks().onPodCreate(ctx, p));
  EXPECT_EQ(p, once);
}

TEST_F(SvcPluginTest, JobAddCreatesWhatBuildProducedOnce) {
  const Components built = build({});
  FakeJobContext ctx(job_, info_, client_, {}, built);
  ASSERT_TRUE(hooks().onJobAdd(ctx));
  EXPECT_EQ(client_.calls, (Strings{"apply ConfigMap demo-svc", "apply Service demo", "apply NetworkPolicy demo"}));
  EXPECT_EQ(client_.configMaps.at("demo-svc"), built.configMaps[0]);
  EXPECT_EQ(client_.services.at("demo"), built.services[0]);
  EXPECT_EQ(client_.networkPolicies.at("demo"), built.networkPolicies[0]);
  EXPECT_EQ(job_.status.controlledResources, (std::map<std::string, std::string>{{"plugin-svc", "svc"}}));

  ASSERT_TRUE(hooks().onJobAdd(ctx));
  EXPECT_EQ(client_.calls.size(), 3u);
}

TEST_F(SvcPluginTest, JobAddWithoutBuildOutputCreatesTheSameObjects) {
  FakeJobContext ctx(job_, info_, client_, {"--disable-network-policy"});
  ASSERT_TRUE(hooks().onJobAdd(ctx));
  EXPECT_EQ(client_.calls, (Strings{"apply ConfigMap demo-svc", "apply Service demo"}));
  EXPECT_EQ(client_.configMaps.at("demo-svc").data, kHosts);
}

// Volcano's OnJobAdd generates the hosts from the job it is given. ComponentBuild ran when the job
// was admitted; a job scaled since (then restarted: OnJobDelete, OnJobAdd) must get its new hosts.
TEST_F(SvcPluginTest, JobAddWritesTheHostsOfTheJobAsItIsNowNotOfAnOlderBuild) {
  const Components built = build({});
  job_.spec.tasks[1].replicas = 1;
  FakeJobContext ctx(job_, info_, client_, {}, built);
  ASSERT_TRUE(hooks().onJobAdd(ctx));
  const Data& data = client_.configMaps.at("demo-svc").data;
  EXPECT_EQ(data.at("worker.host"), "demo-worker-0.demo");
  EXPECT_EQ(data.at("VC_WORKER_HOSTS"), "demo-worker-0.demo");
  EXPECT_EQ(data.at("VC_WORKER_NUM"), "1");
  EXPECT_EQ(client_.services.at("demo"), built.services[0]);
  EXPECT_EQ(client_.networkPolicies.at("demo"), built.networkPolicies[0]);
}

TEST_F(SvcPluginTest, JobAddLeavesExistingServiceAndUnchangedConfigMap) {
  FakeJobContext ctx(job_, info_, client_, {}, build({}));
  client_.apply(build({}));
  client_.calls.clear();
  ASSERT_TRUE(hooks().onJobAdd(ctx));
  EXPECT_TRUE(client_.calls.empty());
  EXPECT_EQ(job_.status.controlledResources.at("plugin-svc"), "svc");
}

TEST_F(SvcPluginTest, JobUpdateRewritesHostsOnlyWhenTheyChange) {
  FakeJobContext ctx(job_, info_, client_, {}, build({}));
  ASSERT_TRUE(hooks().onJobAdd(ctx));
  client_.calls.clear();
  ASSERT_TRUE(hooks().onJobUpdate(ctx));
  EXPECT_TRUE(client_.calls.empty());

  job_.spec.tasks[1].replicas = 1;
  ASSERT_TRUE(hooks().onJobUpdate(ctx));
  ASSERT_TRUE(hooks().onJobUpdate(ctx));
  EXPECT_EQ(client_.calls, Strings{"apply ConfigMap demo-svc"});
  const Data& data = client_.configMaps.at("demo-svc").data;
  EXPECT_EQ(data.at("worker.host"), "demo-worker-0.demo");
  EXPECT_EQ(data.at("VC_WORKER_HOSTS"), "demo-worker-0.demo");
  EXPECT_EQ(data.at("VC_WORKER_NUM"), "1");
}

// OnJobUpdate compares the cluster's ConfigMap on every call, whatever the plugin keeps for the
// job: one changed or deleted behind the plugin's back is written again, an intact one is left.
TEST_F(SvcPluginTest, JobUpdateRepairsAConfigMapChangedOrDeletedBehindThePlugin) {
  FakeJobContext ctx(job_, info_, client_, {});
  ASSERT_TRUE(hooks().onJobAdd(ctx));
  ASSERT_TRUE(hooks().onJobUpdate(ctx));
  client_.configMaps.at("demo-svc").data["worker.host"] = "edited";
  client_.calls.clear();
  ASSERT_TRUE(hooks().onJobUpdate(ctx));
  EXPECT_EQ(client_.calls, Strings{"apply ConfigMap demo-svc"});
  EXPECT_EQ(client_.configMaps.at("demo-svc").data, kHosts);
  client_.configMaps.erase("demo-svc");
  ASSERT_TRUE(hooks().onJobUpdate(ctx));
  ASSERT_TRUE(hooks().onJobUpdate(ctx));
  EXPECT_EQ(client_.calls, (Strings{"apply ConfigMap demo-svc", "apply ConfigMap demo-svc"}));
  EXPECT_EQ(client_.configMaps.at("demo-svc").data, kHosts);
}

// What the plugin keeps for a job in its pluginData slot (FakeJobContext::data keeps it between
// calls, as the host does) never answers for a spec, args or job it was not derived from.
TEST_F(SvcPluginTest, KeptJobDataIsRebuiltWhenTheSpecArgsOrJobChange) {
  FakeJobContext ctx(job_, info_, client_, {});
  ASSERT_TRUE(hooks().onJobAdd(ctx));
  ASSERT_NE(ctx.data, nullptr);

  job_.spec.tasks[1].replicas = 1;
  job_.spec.tasks[2].template_.spec.hostname = "other-host";
  job_.spec.tasks[3].name = "spare";
  ASSERT_TRUE(hooks().onJobUpdate(ctx));
  const Data& data = client_.configMaps.at("demo-svc").data;
  EXPECT_EQ(data.at("VC_WORKER_HOSTS"), "demo-worker-0.demo");
  EXPECT_EQ(data.at("fixed.host"), "other-host.custom");
  EXPECT_EQ(data.count("VC_IDLE_NUM"), 0u);
  EXPECT_EQ(data.at("VC_SPARE_NUM"), "0");
  Pod p = pod(job_, "worker", 0);
  ASSERT_TRUE(hooks().onPodCreate(ctx, p));
  EXPECT_EQ(envList(p.spec.containers[0]).back(), "VC_SPARE_NUM<-configMap:demo-svc/VC_SPARE_NUM");

  FakeJobContext other(job_, info_, client_, {"--disable-network-policy", "--inject-hosts-env=false"});
  other.data = ctx.data;
  Pod q = pod(job_, "worker", 0);
  ASSERT_TRUE(hooks().onPodCreate(other, q));
  EXPECT_TRUE(q.spec.containers[0].env.empty());
  client_.calls.clear();
  ASSERT_TRUE(hooks().onJobDelete(other));
  EXPECT_EQ(client_.calls, (Strings{"remove ConfigMap demo-svc", "remove Service demo"}));

  job_.metadata.uid = "uid-2";  // the job deleted and created again under its name
  ASSERT_TRUE(hooks().onJobAdd(ctx));
  for (const auto& owners : {client_.configMaps.at("demo-svc").metadata.ownerReferences,
                             client_.services.at("demo").metadata.ownerReferences})
    EXPECT_EQ(owners.at(0).uid, "uid-2");
}

TEST_F(SvcPluginTest, JobDeleteRemovesWhatJobAddMadeOnce) {
  FakeJobContext ctx(job_, info_, client_, {}, build({}));
  ASSERT_TRUE(hooks().onJobAdd(ctx));
  client_.calls.clear();
  ASSERT_TRUE(hooks().onJobDelete(ctx));
  EXPECT_EQ(client_.calls, (Strings{"remove ConfigMap demo-svc", "remove Service demo", "remove NetworkPolicy demo"}));
  EXPECT_TRUE(job_.status.controlledResources.empty());
  EXPECT_TRUE(client_.configMaps.empty() && client_.services.empty() && client_.networkPolicies.empty());
  ASSERT_TRUE(hooks().onJobDelete(ctx));
  EXPECT_EQ(client_.calls.size(), 3u);
}

TEST_F(SvcPluginTest, JobDeleteWithNetworkPolicyDisabledKeepsItsHandsOffPolicies) {
  FakeJobContext ctx(job_, info_, client_, {"--disable-network-policy"});
  ASSERT_TRUE(hooks().onJobAdd(ctx));
  client_.calls.clear();
  ASSERT_TRUE(hooks().onJobDelete(ctx));
  EXPECT_EQ(client_.calls, (Strings{"remove ConfigMap demo-svc", "remove Service demo"}));
}

// Go `flag`: a bool is turned off only by `--x=false`. In `--inject-hosts-env false` the flag is
// set (true) and "false" is the first non-flag argument, which ends parsing: the flags after it are
// not applied, and none of this is an error.
TEST_F(SvcPluginTest, BoolFlagFollowedByAWordStaysOnAndEndsTheFlags) {
  const PluginArgs args = {"--inject-hosts-env", "false", "--disable-network-policy"};
  EXPECT_EQ(build(args).networkPolicies.size(), 1u);
  Pod p = pod(job_, "worker", 0);
  FakeJobContext ctx(job_, info_, client_, args);
  ASSERT_TRUE(hooks().onPodCreate(ctx, p));
  EXPECT_EQ(envList(p.spec.containers[0]), kHostsEnv);
  ValidationResult out;
  ASSERT_TRUE(plugin_->validation()->validate(job_, nullptr, args, out));
  EXPECT_TRUE(out.errors.empty());
}

// The plugin mounts its ConfigMap at /etc/volcano in every container and init container, replacing
// a template mount there (Volcano appends a second one, which the API server refuses).
TEST_F(SvcPluginTest, ATemplateMountAtEtcVolcanoIsAnAdmissionWarning) {
  VolumeMount own;
  own.name = "mine";
  own.mountPath = "/etc/volcano";
  job_.spec.tasks[0].template_.spec.initContainers[0].volumeMounts.push_back(own);
  ValidationResult out;
  ASSERT_TRUE(plugin_->validation()->validate(job_, nullptr, {}, out));
  EXPECT_TRUE(out.errors.empty());
  EXPECT_EQ(out.warnings, std::vector<std::string>{
                              "spec.tasks[0].template.spec.initContainers[0].volumeMounts[0]: the svc plugin mounts "
                              "its own volume at /etc/volcano and replaces this mount (on Volcano the API server "
                              "refuses the pod, a mountPath must be unique); mount it elsewhere"});
}

TEST_F(SvcPluginTest, BadFlagsAreAdmissionWarningsNamingPluginAndFlag) {
  auto* validation = plugin_->validation();
  ValidationResult bad;
  ASSERT_TRUE(validation->validate(job_, nullptr, {"--publish-not-ready-addresses=maybe"}, bad));
  EXPECT_TRUE(bad.errors.empty());
  ASSERT_EQ(bad.warnings.size(), 1u);
  EXPECT_EQ(bad.warnings[0].substr(0, bad.warnings[0].find(" (ignored")),
            "spec.plugins.svc: plugin svc: invalid boolean value \"maybe\" for -publish-not-ready-addresses: parse error");

  ValidationResult unknown;
  ASSERT_TRUE(validation->validate(job_, nullptr, {"--no-such-flag"}, unknown));
  EXPECT_TRUE(unknown.errors.empty());
  ASSERT_EQ(unknown.warnings.size(), 1u);
  EXPECT_EQ(unknown.warnings[0].substr(0, unknown.warnings[0].find(" (ignored")),
            "spec.plugins.svc: plugin svc: flag provided but not defined: -no-such-flag");

  ValidationResult good;
  ASSERT_TRUE(validation->validate(
      job_, nullptr, {"--publish-not-ready-addresses", "-disable-network-policy=true", "--inject-hosts-env=false"},
      good));
  EXPECT_TRUE(good.errors.empty());
  EXPECT_TRUE(good.warnings.empty());
}

// svc makes a pod's name its hostname, at most 63 characters: Volcano's webhook checks the name only
// with the task's position as index, so it admits a job whose pods from index 10 on the API server
// refuses. Warned once per such task, naming the first such pod; a template hostname is exempt, and a
// name of exactly 63 characters is fine.
TEST_F(SvcPluginTest, PodNamesTooLongForAHostnameAreWarned) {
  job_.metadata.name = std::string(50, 'j');  // "<50>-worker-" is 58 characters
  job_.spec.tasks[1].replicas = 100'000;      // the last worker, 99999, has 63
  job_.spec.tasks[0].replicas = 11;           // "<50>-ps-main-10" has 61
  ValidationResult out;
  ASSERT_TRUE(plugin_->validation()->validate(job_, nullptr, {}, out));
  EXPECT_TRUE(out.errors.empty());
  EXPECT_TRUE(out.warnings.empty());

  job_.metadata.name = std::string(51, 'j');  // workers from 10000 on have 64; "<51>-ps-main-10" has 62
  job_.spec.tasks[2].replicas = 100'000;      // the task with a template hostname: exempt
  ValidationResult over;
  ASSERT_TRUE(plugin_->validation()->validate(job_, nullptr, {}, over));
  EXPECT_TRUE(over.errors.empty());
  EXPECT_EQ(over.warnings,
            (std::vector<std::string>{"spec.tasks[1].replicas: pod \"" + std::string(51, 'j') +
                                      "-worker-10000\" has a 64-character name, which the svc plugin makes its "
                                      "hostname; a hostname has at most 63, so the API server refuses the task's pods "
                                      "from index 10000 on (shorten the job or task name)"}));
}

// End to end through the production loader and the sim cluster: the objects, every pod of a
// multi-task job (dashed names, a template hostname and subdomain, a zero-replica task), and the
// cleanup when the job is aborted.
TEST(SvcPluginJob, ObjectsAndPodsOfAMultiTaskJobAndCleanupOnAbort) {
  Harness h({shipped("svc")});
  ASSERT_TRUE(h.ok()) << h.loadError();
  ASSERT_TRUE(h.submit(R"(
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: demo, namespace: team-a}
spec:
  plugins: {svc: ["--publish-not-ready-addresses"]}
  tasks:
    - name: ps-main
      replicas: 2
      template:
        spec:
          restartPolicy: Never
          initContainers: [{name: init, image: busybox}]
          containers: [{name: main, image: busybox}]
    - name: fixed
      replicas: 2
      template:
        spec: {hostname: fixed-host, subdomain: custom, restartPolicy: Never, containers: [{name: main, image: busybox}]}
    - name: idle
      replicas: 0
      template: {spec: {restartPolicy: Never, containers: [{name: main, image: busybox}]}}
)"));
  EXPECT_EQ(h.configMap("demo-svc").data,
            (Data{{"ps_main.host", "demo-ps-main-0.demo\ndemo-ps-main-1.demo"},
                  {"VC_PS_MAIN_HOSTS", "demo-ps-main-0.demo,demo-ps-main-1.demo"},
                  {"VC_PS_MAIN_NUM", "2"},
                  {"fixed.host", "fixed-host.custom"},
                  {"VC_FIXED_HOSTS", "fixed-host.custom"},
                  {"VC_FIXED_NUM", "1"},
                  {"idle.host", ""},
                  {"VC_IDLE_HOSTS", ""},
                  {"VC_IDLE_NUM", "0"}}));
  EXPECT_TRUE(h.service("demo").spec.publishNotReadyAddresses);
  EXPECT_EQ(h.service("demo").spec.clusterIP, "None");
  EXPECT_EQ(h.networkPolicy("demo").spec.policyTypes, Strings{"Ingress"});

  const Strings env = {"VC_PS_MAIN_HOSTS<-configMap:demo-svc/VC_PS_MAIN_HOSTS",
                       "VC_PS_MAIN_NUM<-configMap:demo-svc/VC_PS_MAIN_NUM",
                       "VC_FIXED_HOSTS<-configMap:demo-svc/VC_FIXED_HOSTS",
                       "VC_FIXED_NUM<-configMap:demo-svc/VC_FIXED_NUM",
                       "VC_IDLE_HOSTS<-configMap:demo-svc/VC_IDLE_HOSTS",
                       "VC_IDLE_NUM<-configMap:demo-svc/VC_IDLE_NUM"};
  EXPECT_EQ(h.podNames(), (Strings{"demo-fixed-0", "demo-fixed-1", "demo-ps-main-0", "demo-ps-main-1"}));
  const PodView ps = h.pod("demo-ps-main-1");
  EXPECT_EQ(ps.pod().spec.hostname, "demo-ps-main-1");
  EXPECT_EQ(ps.pod().spec.subdomain, "demo");
  EXPECT_EQ(ps.envList(), env);
  EXPECT_EQ(envList(ps.initContainer("init")), env);
  ASSERT_NE(ps.mount("/etc/volcano"), nullptr);
  EXPECT_EQ(ps.mount("/etc/volcano")->name, "demo-svc");
  const PodView fixed = h.pod("demo-fixed-1");
  EXPECT_EQ(fixed.pod().spec.hostname, "fixed-host");
  EXPECT_EQ(fixed.pod().spec.subdomain, "custom");
  EXPECT_EQ(fixed.envList(), env);
  EXPECT_EQ(h.job().status.controlledResources.at("plugin-svc"), "svc");

  h.command("AbortJob");
  h.advance(1000);
  EXPECT_EQ(h.phase(), JobPhase::Aborted);
  EXPECT_TRUE(h.resources().empty());
  EXPECT_EQ(h.job().status.controlledResources.count("plugin-svc"), 0u);
}

}  // namespace
}  // namespace jobhost::testing
