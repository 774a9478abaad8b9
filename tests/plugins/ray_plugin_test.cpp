// Tests of the ray plugin's real .so: the head and worker commands, the head's ports, the
// <job>-head-svc Service and its marker, the missing-head error, flags and validation.
#include <gtest/gtest.h>

#include <jobhost/testing/testing.h>

namespace jobhost::testing {
namespace {

using Strings = std::vector<std::string>;

// Volcano's example/integrations/ray/ray-example.yaml shape: a head and two workers, each pod with
// its ray container and a sidecar; `args` are the job's ray flags, `headPorts` the head's template ports.
std::string rayJob(const std::string& args = "[]", const std::string& headPorts = "[]") {
  return R"(
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: ray-cluster, namespace: team-a}
spec:
  minAvailable: 3
  plugins: {ray: )" + args + R"(, svc: []}
  tasks:
    - name: head
      replicas: 1
      template:
        spec:
          restartPolicy: Never
          containers:
            - {name: head, image: rayproject/ray:latest, command: [python], ports: )" + headPorts + R"(}
            - {name: sidecar, image: busybox}
    - name: worker
      replicas: 2
      template:
        spec:
          restartPolicy: Never
          containers:
            - {name: worker, image: rayproject/ray:latest}
            - {name: sidecar, image: busybox}
)";
}

Strings portsOf(const PodView& pod, std::string_view container) {
  Strings out;
  for (const auto& p : pod.ports(container)) out.push_back(p.name + "=" + std::to_string(p.containerPort));
  return out;
}

class RayPluginTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(h_.ok()) << h_.loadError(); }
  Harness h_{{shipped("svc"), shipped("ray")}};
};

TEST_F(RayPluginTest, ReportsItsPoints) {
  EXPECT_EQ(h_.pluginInfo("ray").name, "ray");
  EXPECT_EQ(h_.capabilities("ray"), kValidation | kJobHooks);
}

TEST_F(RayPluginTest, TheHeadStartsTheClusterAndOpensItsThreePorts) {
  ASSERT_TRUE(h_.submit(rayJob()));
  const PodView head = h_.pod("ray-cluster-head-0");
  EXPECT_EQ(head.container("head").command,
            (Strings{"sh", "-c",
                     "ray start --head --block --dashboard-host=0.0.0.0 --port=6379 --dashboard-port=8265 "
                     "--ray-client-server-port=10001"}));
  EXPECT_EQ(portsOf(head, "head"), (Strings{"gcs=6379", "dashboard=8265", "client-server=10001"}));
  EXPECT_EQ(head.port("gcs", "head")->protocol, "");  // Volcano leaves the protocol to the API server
  EXPECT_TRUE(head.container("sidecar").command.empty());
  EXPECT_TRUE(head.ports("sidecar").empty());
}

TEST_F(RayPluginTest, EveryWorkerJoinsTheHeadPodZero) {
  ASSERT_TRUE(h_.submit(rayJob()));
  for (const char* name : {"ray-cluster-worker-0", "ray-cluster-worker-1"}) {
    const PodView worker = h_.pod(name);
    EXPECT_EQ(worker.container("worker").command,
              (Strings{"sh", "-c", "ray start --block --address=ray-cluster-head-0.ray-cluster:6379"}));
    EXPECT_TRUE(worker.ports("worker").empty());
    EXPECT_TRUE(worker.container("sidecar").command.empty());
  }
}

TEST_F(RayPluginTest, AHeadPortAlreadyOpenByNumberIsNotAddedAgain) {
  ASSERT_TRUE(h_.submit(rayJob("[]", "[{name: redis, containerPort: 6379}, {containerPort: 10001}]")));
  EXPECT_EQ(portsOf(h_.pod("ray-cluster-head-0"), "head"), (Strings{"redis=6379", "=10001", "dashboard=8265"}));
}

TEST_F(RayPluginTest, FlagsRenameTasksAndContainersAndSetThePorts) {
  ASSERT_TRUE(h_.submit(R"(
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: rc, namespace: team-a}
spec:
  plugins: {ray: [--head=boss, --headContainer=ray, --worker=hand, --workerContainer=ray,
                  --port=1234, --dashboardPort=3456, --clientPort=4567]}
  tasks:
    - name: boss
      replicas: 1
      template: {spec: {hostname: gcs, subdomain: cluster, containers: [{name: ray, image: ray}]}}
    - name: hand
      replicas: 1
      template: {spec: {containers: [{name: ray, image: ray}, {name: worker, image: ray}]}}
)"));
  const PodView head = h_.pod("rc-boss-0");
  EXPECT_EQ(head.container("ray").command,
            (Strings{"sh", "-c",
                     "ray start --head --block --dashboard-host=0.0.0.0 --port=1234 --dashboard-port=3456 "
                     "--ray-client-server-port=4567"}));
  EXPECT_EQ(portsOf(head, "ray"), (Strings{"gcs=1234", "dashboard=3456", "client-server=4567"}));
  // The head's template hostname and subdomain make its address; the default-named container is untouched.
  const PodView worker = h_.pod("rc-hand-0");
  EXPECT_EQ(worker.container("ray").command, (Strings{"sh", "-c", "ray start --block --address=gcs.cluster:1234"}));
  EXPECT_TRUE(worker.container("worker").command.empty());
  const Service service = h_.service("rc-head-svc");
  EXPECT_EQ(service.spec.selector.at("volcano.sh/task-spec"), "boss");
  EXPECT_EQ(service.spec.ports.at(0).port, 1234);
  EXPECT_EQ(service.spec.ports.at(2).port, 4567);
}

TEST_F(RayPluginTest, OnJobAddCreatesTheHeadServiceOwnedByTheJob) {
  ASSERT_TRUE(h_.submit(rayJob()));
  const Service service = h_.service("ray-cluster-head-svc");
  EXPECT_EQ(service.metadata.namespace_, "team-a");
  ASSERT_EQ(service.metadata.ownerReferences.size(), 1u);
  const OwnerReference& owner = service.metadata.ownerReferences[0];
  EXPECT_EQ(owner.kind, "Job");
  EXPECT_EQ(owner.name, "ray-cluster");
  EXPECT_EQ(owner.uid, h_.job().metadata.uid);
  EXPECT_TRUE(owner.controller && owner.blockOwnerDeletion);
  EXPECT_EQ(service.spec.type, "ClusterIP");
  EXPECT_EQ(service.spec.clusterIP, "");  // a normal Service, not headless like svc's
  EXPECT_EQ(service.spec.selector, (StringMap{{"volcano.sh/job-name", "ray-cluster"},
                                              {"volcano.sh/job-namespace", "team-a"},
                                              {"volcano.sh/task-spec", "head"}}));
  Strings ports;
  for (const auto& p : service.spec.ports)
    ports.push_back(p.name + " " + p.protocol + " " + std::to_string(p.port) + "->" + p.targetPort);
  EXPECT_EQ(ports, (Strings{"gcs TCP 6379->gcs", "dashboard TCP 8265->dashboard",
                            "client-server TCP 10001->client-server"}));
  EXPECT_EQ(h_.job().status.controlledResources.at("plugin-ray"), "ray");
}

TEST_F(RayPluginTest, AbortDeletesTheHeadServiceAndClearsTheMarker) {
  ASSERT_TRUE(h_.submit(rayJob()));
  h_.command("AbortJob");
  h_.advance(1000);
  EXPECT_EQ(h_.phase(), JobPhase::Aborted);
  EXPECT_THROW(h_.service("ray-cluster-head-svc"), std::out_of_range);
  EXPECT_EQ(h_.job().status.controlledResources.count("plugin-ray"), 0u);
}

TEST_F(RayPluginTest, AJobWithoutTheHeadTaskCreatesNoPod) {
  ASSERT_TRUE(h_.submit(R"(
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: headless, namespace: team-a}
spec:
  plugins: {ray: []}
  tasks: [{name: worker, replicas: 2, template: {spec: {containers: [{name: worker, image: ray}]}}}]
)"));
  EXPECT_TRUE(h_.podNames().empty());
  const Strings errors = h_.syncErrors();
  ASSERT_FALSE(errors.empty());
  EXPECT_NE(errors[0].find("job headless doesn't have head task head"), std::string::npos) << errors[0];
}

TEST_F(RayPluginTest, PodCreateTwiceGivesTheSamePod) {
  Job j = job("rc", {task("head", 1, {container("head")}), task("worker", 1, {container("worker")})}, {{"ray", {}}});
  RuntimeInfo info = runtimeInfo(j);
  FakeResourceClient client;
  FakeJobContext ctx(j, info, client, {});
  JobHooksPlugin& hooks = *h_.plugin("ray").jobHooks();
  for (const char* task : {"head", "worker"}) {
    Pod p = pod(j, task, 0);
    ASSERT_TRUE(hooks.onPodCreate(ctx, p));
    const Pod once = p;
    ASSERT_TRUE(hooks.onPodCreate(ctx, p));
    EXPECT_EQ(p, once) << task;
  }
}

TEST_F(RayPluginTest, OnJobAddIsIdempotentAndOnJobDeleteUndoesIt) {
  Job j = job("rc", {task("head", 1, {container("head")})}, {{"ray", {}}});
  RuntimeInfo info = runtimeInfo(j);
  FakeResourceClient client;
  FakeJobContext ctx(j, info, client, {});
  JobHooksPlugin& hooks = *h_.plugin("ray").jobHooks();
  ASSERT_TRUE(hooks.onJobAdd(ctx));
  ASSERT_TRUE(hooks.onJobAdd(ctx));
  ASSERT_EQ(client.services.size(), 1u);
  EXPECT_EQ(client.services.count("rc-head-svc"), 1u);
  ASSERT_TRUE(hooks.onJobDelete(ctx));
  EXPECT_TRUE(client.services.empty());
  EXPECT_TRUE(j.status.controlledResources.empty());
  ASSERT_TRUE(hooks.onJobDelete(ctx));  // no marker: nothing to undo
}

TEST_F(RayPluginTest, AnUnknownFlagIsAnAdmissionWarningAndTheFlagsBeforeItApply) {
  const Submission s = h_.submit(rayJob("[--port=7000, --bogus, --dashboardPort=1]"));
  ASSERT_TRUE(s);
  EXPECT_EQ(s.warnings, Strings{"spec.plugins.ray: plugin ray: flag provided but not defined: -bogus (ignored as on Volcano: flags before it apply, flags after it keep "
                                "their defaults, and a value that does not parse is set as Go sets it: "
                                "0, false or the bound it passed)"});
  EXPECT_EQ(portsOf(h_.pod("ray-cluster-head-0"), "head"), (Strings{"gcs=7000", "dashboard=8265", "client-server=10001"}));
}

TEST(RayPluginLoad, BadConfigDefaultArgsFailTheLoad) {
  Harness loaded({shipped("ray", {"--port=x"})});
  ASSERT_FALSE(loaded.ok());
  EXPECT_NE(loaded.loadError().find("rejected its config args: plugin ray: invalid value \"x\" for flag -port"),
            std::string::npos)
      << loaded.loadError();
}

}  // namespace
}  // namespace jobhost::testing
