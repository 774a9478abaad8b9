// Encoders for the objects a job creates and for the standalone job status: exact Kubernetes JSON,
// omitempty, apiVersion/kind, and secret redaction.
#include <gtest/gtest.h>

#include "host/spec/encode.h"
#include "host/spec/writers.h"

namespace jobhost {
namespace {

constexpr TimeMs kT = 1767323045000;  // 2026-01-02T03:04:05Z

template <class T, class Encode>
std::string json(const T& object, Encode encode) {
  rapidjson::Document d;
  return toJson(encode(object, d.GetAllocator()), false);
}

ObjectMeta meta(std::string name) {
  ObjectMeta m;
  m.name = std::move(name);
  m.namespace_ = "ns";
  return m;
}

TEST(Encode, JobStatusStandalone) {
  JobStatus s;
  EXPECT_EQ(json(s, encodeJobStatus), R"({"state":{}})");
  s.state = {JobPhase::Completed, "Done", "all tasks succeeded", kT};
  s.minAvailable = 2;
  // Every phase: Go writes a map's keys sorted by name.
  s.taskStatusCount["worker"].phase = {{PodPhase::Pending, 5}, {PodPhase::Running, 1}, {PodPhase::Succeeded, 2},
                                       {PodPhase::Failed, 3}, {PodPhase::Unknown, 4}};
  s.taskStatusCount["idle"];
  s.pending = 1;
  s.running = 2;
  s.succeeded = 3;
  s.failed = 4;
  s.terminating = 5;
  s.unknown = 6;
  s.version = 7;
  s.retryCount = 8;
  s.runningDurationMs = 90500;
  s.controlledResources = {{"volume-pvc-data", "data"}};
  s.conditions = {{JobPhase::Pending, kT}, {JobPhase::Running, std::nullopt}};
  EXPECT_EQ(json(s, encodeJobStatus),
            R"({"state":{"phase":"Completed","reason":"Done","message":"all tasks succeeded",)"
            R"("lastTransitionTime":"2026-01-02T03:04:05Z"},"minAvailable":2,)"
            R"("taskStatusCount":{"idle":{},"worker":{"phase":{"Failed":3,"Pending":5,"Running":1,"Succeeded":2,"Unknown":4}}},)"
            R"("pending":1,"running":2,"succeeded":3,"failed":4,"terminating":5,"unknown":6,"version":7,)"
            R"("retryCount":8,"runningDuration":"1m30.5s","controlledResources":{"volume-pvc-data":"data"},)"
            R"("conditions":[{"status":"Pending","lastTransitionTime":"2026-01-02T03:04:05Z"},{"status":"Running"}]})");
}

TEST(Encode, Pod) {
  Pod pod;
  pod.metadata = meta("job-worker-0");
  pod.metadata.creationTimestamp = kT;
  pod.metadata.ownerReferences = {{"batch.volcano.sh/v1alpha1", "Job", "job", "uid-1", true, true}};
  pod.metadata.annotations = {{"volcano.sh/task-index", "0"}};
  Container c;
  c.name = "w";
  c.image = "busybox";
  c.env = {EnvVar::literal("A", "1"), EnvVar::literal("EMPTY", "")};
  c.resources.requests = {{"cpu", Quantity::fromMilli(500)}};
  c.volumeMounts = {{"data", "/data", "", true, {}}};
  pod.spec.containers = {c};
  Volume v;
  v.name = "data";
  v.emptyDir = EmptyDirVolumeSource{};
  pod.spec.volumes = {v};
  pod.spec.hostname = "job-worker-0";
  pod.spec.subdomain = "job";
  pod.status.phase = PodPhase::Failed;
  pod.status.nodeName = "node-1";
  pod.status.podIP = "10.1.0.7";
  ContainerStatus cs;
  cs.name = "w";
  cs.terminated = ContainerStateTerminated{137, 9, "OOMKilled", ""};
  cs.restartCount = 1;
  pod.status.containerStatuses = {cs};
  EXPECT_EQ(json(pod, encodePod),
            R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"job-worker-0","namespace":"ns",)"
            R"("creationTimestamp":"2026-01-02T03:04:05Z","annotations":{"volcano.sh/task-index":"0"},)"
            R"("ownerReferences":[{"apiVersion":"batch.volcano.sh/v1alpha1","kind":"Job","name":"job","uid":"uid-1",)"
            R"("controller":true,"blockOwnerDeletion":true}]},)"
            R"("spec":{"volumes":[{"name":"data","emptyDir":{}}],"containers":[{"name":"w","image":"busybox",)"
            R"("env":[{"name":"A","value":"1"},{"name":"EMPTY"}],"resources":{"requests":{"cpu":"500m"}},)"
            R"("volumeMounts":[{"name":"data","readOnly":true,"mountPath":"/data"}]}],"nodeName":"node-1",)"
            R"("hostname":"job-worker-0","subdomain":"job"},)"
            R"("status":{"phase":"Failed","podIP":"10.1.0.7","containerStatuses":[{"name":"w","state":)"
            R"({"terminated":{"exitCode":137,"signal":9,"reason":"OOMKilled"}},"ready":false,"restartCount":1}]}})");
}

TEST(Encode, PodGroup) {
  PodGroup pg;
  pg.metadata = meta("job-uid");
  pg.spec.minMember = 3;
  pg.spec.minTaskMember = {{"master", 1}, {"worker", 2}};
  pg.spec.queue = "default";
  pg.spec.minResources = ResourceList{{"cpu", Quantity::fromMilli(3000)}, {"pods", Quantity::fromMilli(3000)}};
  pg.spec.networkTopology = NetworkTopologySpec{"hard", 1, ""};
  SubGroupPolicy sub;
  sub.name = "worker";
  sub.subGroupSize = 2;
  sub.minSubGroups = 1;
  sub.labelSelector.matchLabels = {{"volcano.sh/task-spec", "worker"}};
  sub.matchLabelKeys = {"volcano.sh/partition-id"};
  pg.spec.subGroupPolicy = {sub};
  pg.spec.scheduleTimeoutSeconds = 60;
  EXPECT_EQ(json(pg, encodePodGroup),
            R"({"apiVersion":"scheduling.volcano.sh/v1beta1","kind":"PodGroup","metadata":{"name":"job-uid","namespace":"ns"},)"
            R"("spec":{"minMember":3,"minTaskMember":{"master":1,"worker":2},"queue":"default",)"
            R"("minResources":{"cpu":"3","pods":"3"},"networkTopology":{"mode":"hard","highestTierAllowed":1},)"
            R"("subGroupPolicy":[{"name":"worker","subGroupSize":2,"minSubGroups":1,)"
            R"("labelSelector":{"matchLabels":{"volcano.sh/task-spec":"worker"}},"matchLabelKeys":["volcano.sh/partition-id"]}],)"
            R"("scheduleTimeoutSeconds":60}})");

  PodGroup empty;
  empty.spec.minTaskMemberSet = true;
  empty.status.phase = "Inqueue";
  empty.status.conditions = {{"Scheduled", "True", "", "", kT}};
  empty.status.running = 1;
  EXPECT_EQ(json(empty, encodePodGroup),
            R"({"apiVersion":"scheduling.volcano.sh/v1beta1","kind":"PodGroup","metadata":{},)"
            R"("spec":{"minMember":0,"minTaskMember":{}},"status":{"phase":"Inqueue",)"
            R"("conditions":[{"type":"Scheduled","status":"True","lastTransitionTime":"2026-01-02T03:04:05Z"}],"running":1}})");
}

TEST(Encode, ConfigMapServiceNetworkPolicy) {
  ConfigMap cm{meta("job-svc"), {{"worker.host", "job-worker-0.job\njob-worker-1.job"}}};
  EXPECT_EQ(json(cm, encodeConfigMap),
            R"({"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"job-svc","namespace":"ns"},)"
            R"("data":{"worker.host":"job-worker-0.job\njob-worker-1.job"}})");

  Service svc;
  svc.metadata = meta("job");
  svc.spec.clusterIP = "None";
  svc.spec.selector = {{"volcano.sh/job-name", "job"}};
  svc.spec.ports = {{"placeholder-volcano", "TCP", 1, "1"}, {"http", "", 80, "web"}};
  svc.spec.publishNotReadyAddresses = true;
  EXPECT_EQ(json(svc, encodeService),
            R"({"apiVersion":"v1","kind":"Service","metadata":{"name":"job","namespace":"ns"},)"
            R"("spec":{"ports":[{"name":"placeholder-volcano","protocol":"TCP","port":1,"targetPort":1},)"
            R"({"name":"http","port":80,"targetPort":"web"}],"selector":{"volcano.sh/job-name":"job"},)"
            R"("clusterIP":"None","publishNotReadyAddresses":true}})");

  NetworkPolicy np;
  np.metadata = meta("job");
  np.spec.podSelector.matchLabels = {{"volcano.sh/job-name", "job"}};
  NetworkPolicyPeer peer;
  peer.podSelector = LabelSelector{{{"volcano.sh/job-name", "job"}}, {}};
  np.spec.ingress = {{{peer}}, {}};
  np.spec.policyTypes = {"Ingress"};
  EXPECT_EQ(json(np, encodeNetworkPolicy),
            R"({"apiVersion":"networking.k8s.io/v1","kind":"NetworkPolicy","metadata":{"name":"job","namespace":"ns"},)"
            R"("spec":{"podSelector":{"matchLabels":{"volcano.sh/job-name":"job"}},)"
            R"("ingress":[{"from":[{"podSelector":{"matchLabels":{"volcano.sh/job-name":"job"}}}]},{}],)"
            R"("policyTypes":["Ingress"]}})");

  NetworkPolicy allPods;
  allPods.spec.podSelector.unknown = {{"matchExpressions", R"([{"key":"a","operator":"Exists"}])"}};
  EXPECT_EQ(json(allPods, encodeNetworkPolicy),
            R"({"apiVersion":"networking.k8s.io/v1","kind":"NetworkPolicy","metadata":{},)"
            R"("spec":{"podSelector":{"matchExpressions":[{"key":"a","operator":"Exists"}]}}})");
}

TEST(Encode, SecretsAreRedactedByDefault) {
  Secret secret{meta("job-ssh"), "Opaque", {{"id_rsa", "-----BEGIN KEY-----\nhunter2"}, {"pw", "hunter2"}}, true};
  rapidjson::Document d;
  std::string redacted = toJson(encodeSecret(secret, d.GetAllocator()), false);
  EXPECT_EQ(redacted, R"({"apiVersion":"v1","kind":"Secret","metadata":{"name":"job-ssh","namespace":"ns"},)"
                      R"("immutable":true,"data":{"id_rsa":"PHJlZGFjdGVkPg==","pw":"PHJlZGFjdGVkPg=="},"type":"Opaque"})");
  EXPECT_EQ(redacted.find("hunter2"), std::string::npos);
  EXPECT_EQ(toYaml(encodeSecret(secret, d.GetAllocator())).find("aHVudGVyMg=="), std::string::npos);

  std::string revealed = toJson(encodeSecret(secret, d.GetAllocator(), {.redactSecrets = false}), false);
  EXPECT_EQ(revealed, R"({"apiVersion":"v1","kind":"Secret","metadata":{"name":"job-ssh","namespace":"ns"},)"
                      R"("immutable":true,"data":{"id_rsa":"LS0tLS1CRUdJTiBLRVktLS0tLQpodW50ZXIy","pw":"aHVudGVyMg=="},"type":"Opaque"})");
  EXPECT_EQ(json(Secret{}, [](const Secret& s, JsonAllocator& a) { return encodeSecret(s, a); }),
            R"({"apiVersion":"v1","kind":"Secret","metadata":{}})");
}

TEST(Encode, SecretPluginArgsOfAJobAreRedactedByDefault) {
  Job job;
  job.metadata = meta("j");
  job.spec.plugins["ssh"] = {"--ssh-private-key=hunter2", "--ssh-port=2222"};
  job.spec.plugins["x"] = {"--api-token", "hunter2", "--db-password=hunter2", "--name", "kept"};
  rapidjson::Document d;
  EXPECT_EQ(toJson(encodeJob(job, d.GetAllocator())["spec"]["plugins"], false),
            R"({"ssh":["--ssh-private-key=<redacted>","--ssh-port=2222"],)"
            R"("x":["--api-token","<redacted>","--db-password=<redacted>","--name","kept"]})");
  EXPECT_EQ(toJson(encodeJob(job, d.GetAllocator(), {.redactSecrets = false})["spec"]["plugins"], false),
            R"({"ssh":["--ssh-private-key=hunter2","--ssh-port=2222"],)"
            R"("x":["--api-token","hunter2","--db-password=hunter2","--name","kept"]})");
}

}  // namespace
}  // namespace jobhost
