// Job decoding: every modelled field of a full Volcano job (tests/spec/data/full_job.yaml), the
// unknown-field stores, defaults, and JSON/List inputs.
#include <gtest/gtest.h>

#include "host/spec/duration.h"
#include "host/spec/job_loader.h"

namespace jobhost {
namespace {

const std::string kFullJob = JOBHOST_SOURCE_DIR "/tests/spec/data/full_job.yaml";
constexpr TimeMs kCreated = 1767323045000;  // 2026-01-02T03:04:05Z

Job loadFullJob() {
  auto docs = loadJobs(kFullJob);
  EXPECT_TRUE(docs.ok()) << docs.error();
  EXPECT_EQ(docs->size(), 1u);
  return docs->front().job;
}

Quantity q(const char* text) { return *Quantity::parse(text); }

TEST(JobDecode, Metadata) {
  Job job = loadFullJob();
  EXPECT_EQ(job.apiVersion, "batch.volcano.sh/v1alpha1");
  EXPECT_EQ(job.kind, "Job");
  const ObjectMeta& m = job.metadata;
  EXPECT_EQ(m.name, "pytorch-full");
  EXPECT_EQ(m.namespace_, "team-a");
  EXPECT_EQ(m.uid, "0b6f4c52-1111-4222-8333-944455556666");
  EXPECT_EQ(m.resourceVersion, "4242");
  EXPECT_EQ(m.labels, (StringMap{{"app", "trainer"}, {"volcano.sh/preemptable", "true"}}));
  EXPECT_EQ(m.annotations, (StringMap{{"volcano.sh/jdb-min-available", "2"}}));
  ASSERT_EQ(m.ownerReferences.size(), 1u);
  EXPECT_EQ(m.ownerReferences[0],
            (OwnerReference{"v1", "ConfigMap", "owner", "9f0e2d3c-0000-4000-8000-000000000001", true, true}));
  EXPECT_EQ(m.creationTimestamp, kCreated);
  EXPECT_EQ(m.deletionTimestamp, std::nullopt);
  EXPECT_EQ(m.unknown, (UnknownFields{{"generateName", "\"pytorch-\""}, {"finalizers", "[\"jobhost.dev/cleanup\"]"}}));
  EXPECT_TRUE(job.unknown.empty());
}

TEST(JobDecode, JobSpec) {
  const JobSpec s = loadFullJob().spec;
  EXPECT_EQ(s.schedulerName, "volcano");
  EXPECT_EQ(s.minAvailable, 3);
  EXPECT_EQ(s.queue, "research");
  EXPECT_EQ(s.maxRetry, 5);
  EXPECT_EQ(s.ttlSecondsAfterFinished, 600);
  EXPECT_EQ(s.priorityClassName, "high");
  EXPECT_EQ(s.minSuccess, 2);
  EXPECT_EQ(s.runningEstimate, Duration{90 * 60 * 1000});
  EXPECT_EQ(s.networkTopology, (NetworkTopologySpec{"hard", 2, ""}));
  ASSERT_EQ(s.volumes.size(), 2u);
  EXPECT_EQ(s.volumes[0], (JobVolume{"/data", "shared-data", std::nullopt}));
  EXPECT_EQ(s.volumes[1],
            (JobVolume{"/scratch", "", R"({"accessModes":["ReadWriteOnce"],"resources":{"requests":{"storage":"10Gi"}}})"}));
  using Plugins = std::map<std::string, std::vector<std::string>>;
  EXPECT_EQ(s.plugins, (Plugins{{"env", {}},
                                {"pytorch", {"--master=master", "--worker=worker", "--port=23456"}},
                                {"svc", {}}}));
  ASSERT_EQ(s.policies.size(), 3u);
  EXPECT_EQ(s.policies[0], (LifecyclePolicy{"RestartJob", "PodEvicted", {}, std::nullopt, std::nullopt}));
  EXPECT_EQ(s.policies[1], (LifecyclePolicy{"AbortJob", "", {"PodFailed", "TaskFailed"}, std::nullopt, Duration{600000}}));
  EXPECT_EQ(s.policies[2], (LifecyclePolicy{"RestartTask", "", {}, 137, std::nullopt}));
  EXPECT_EQ(s.unknown, (UnknownFields{{"suspendAfter", "\"3h\""}}));
  ASSERT_EQ(s.tasks.size(), 2u);
}

TEST(JobDecode, Tasks) {
  const JobSpec s = loadFullJob().spec;
  const TaskSpec& master = s.tasks[0];
  EXPECT_EQ(master.name, "master");
  EXPECT_EQ(master.replicas, 1);
  EXPECT_EQ(master.minAvailable, 1);
  EXPECT_EQ(master.maxRetry, 2);
  EXPECT_EQ(master.topologyPolicy, "best-effort");
  EXPECT_EQ(master.policies, (std::vector<LifecyclePolicy>{{"CompleteJob", "TaskCompleted", {}, std::nullopt, std::nullopt}}));
  EXPECT_EQ(master.dependsOn, std::nullopt);
  EXPECT_EQ(master.partitionPolicy, std::nullopt);
  EXPECT_TRUE(master.unknown.empty());
  EXPECT_EQ(master.template_.metadata.labels, (StringMap{{"role", "master"}}));
  EXPECT_EQ(master.template_.metadata.annotations, (StringMap{{"sidecar.istio.io/inject", "false"}}));
  EXPECT_EQ(master.template_.metadata.namespace_, "");  // only the job's namespace is defaulted

  const TaskSpec& worker = s.tasks[1];
  EXPECT_EQ(worker.name, "worker");
  EXPECT_EQ(worker.replicas, 4);
  EXPECT_EQ(worker.minAvailable, std::nullopt);
  EXPECT_EQ(worker.dependsOn, (DependsOn{{"master"}, "any"}));
  EXPECT_EQ(worker.partitionPolicy, (PartitionPolicy{2, 2, NetworkTopologySpec{"soft", std::nullopt, "rack"}, 1}));
  EXPECT_EQ(worker.unknown, (UnknownFields{{"backoffLimit", "4"}}));
  ASSERT_EQ(worker.template_.spec.containers.size(), 1u);
  EXPECT_EQ(worker.template_.spec.containers[0].image, "ghcr.io/example/pytorch:2.3");
}

TEST(JobDecode, PodSpec) {
  const PodSpec p = loadFullJob().spec.tasks[0].template_.spec;
  EXPECT_EQ(p.restartPolicy, "OnFailure");
  EXPECT_EQ(p.priorityClassName, "urgent");
  EXPECT_EQ(p.schedulerName, "volcano");
  EXPECT_EQ(p.hostname, "master-0");
  EXPECT_EQ(p.subdomain, "pytorch-full");
  EXPECT_EQ(p.dnsPolicy, "ClusterFirstWithHostNet");
  EXPECT_TRUE(p.hostNetwork);
  EXPECT_EQ(p.unknown, (UnknownFields{{"nodeSelector", R"({"accelerator":"a100"})"},
                                      {"tolerations", R"([{"key":"gpu","operator":"Exists","effect":"NoSchedule"}])"}}));
  ASSERT_EQ(p.initContainers.size(), 1u);
  EXPECT_EQ(p.initContainers[0].name, "fetch");
  EXPECT_EQ(p.initContainers[0].image, "busybox:1.36");
  EXPECT_EQ(p.initContainers[0].command, (std::vector<std::string>{"sh", "-c", "wget -O /data/model.bin $MODEL_URL"}));
}

TEST(JobDecode, Container) {
  const Container c = loadFullJob().spec.tasks[0].template_.spec.containers.at(0);
  EXPECT_EQ(c.name, "trainer");
  EXPECT_EQ(c.image, "ghcr.io/example/pytorch:2.3");
  EXPECT_EQ(c.command, (std::vector<std::string>{"torchrun"}));
  EXPECT_EQ(c.args, (std::vector<std::string>{"--nproc-per-node=8", "train.py"}));
  EXPECT_EQ(c.workingDir, "/workspace");
  EXPECT_EQ(c.unknown, (UnknownFields{{"imagePullPolicy", "\"IfNotPresent\""},
                                      {"readinessProbe", R"({"tcpSocket":{"port":23456},"periodSeconds":5})"},
                                      {"securityContext", R"({"runAsUser":1000})"}}));

  ASSERT_EQ(c.env.size(), 5u);
  EXPECT_EQ(c.env[0], EnvVar::literal("EPOCHS", "10"));
  EnvVarSource fromConfigMap;
  fromConfigMap.configMapKeyRef = KeySelector{"model-config", "url", true};
  EXPECT_EQ(c.env[1], (EnvVar{"MODEL_URL", "", fromConfigMap}));
  EnvVarSource fromSecret;
  fromSecret.secretKeyRef = KeySelector{"hub-token", "token", std::nullopt};
  EXPECT_EQ(c.env[2], (EnvVar{"TOKEN", "", fromSecret}));
  EnvVarSource fromField;
  fromField.fieldRef = FieldSelector{"v1", "metadata.name"};
  EXPECT_EQ(c.env[3], (EnvVar{"POD_NAME", "", fromField}));
  EnvVarSource fromResource;
  fromResource.resourceFieldRef = ResourceFieldSelector{"trainer", "limits.cpu", q("1m")};
  EXPECT_EQ(c.env[4], (EnvVar{"CPU_LIMIT", "", fromResource}));

  EXPECT_EQ(c.ports, (std::vector<ContainerPort>{{"dist", 23456, "TCP", 0, ""}, {"", 8080, "", 18080, "127.0.0.1"}}));

  EXPECT_EQ(c.resources.requests, (ResourceList{{"cpu", q("1500m")}, {"memory", q("2Gi")}, {"nvidia.com/gpu", q("1")}}));
  EXPECT_EQ(c.resources.limits, (ResourceList{{"cpu", q("2")}, {"memory", q("4Gi")}}));
  EXPECT_EQ(c.resources.requests.at("memory").format(), Quantity::Format::BinarySI);
  EXPECT_EQ(c.resources.unknown, (UnknownFields{{"claims", R"([{"name":"gpu-claim"}])"}}));

  ASSERT_EQ(c.volumeMounts.size(), 2u);
  EXPECT_EQ(c.volumeMounts[0], (VolumeMount{"config", "/etc/trainer", "", true, {}}));
  EXPECT_EQ(c.volumeMounts[1],
            (VolumeMount{"cache", "/cache", "trainer", false, {{"mountPropagation", "\"HostToContainer\""}}}));
}

TEST(JobDecode, Volumes) {
  const std::vector<Volume> v = loadFullJob().spec.tasks[0].template_.spec.volumes;
  ASSERT_EQ(v.size(), 5u);
  EXPECT_EQ(v[0].name, "config");
  // defaultMode 0644 is octal like kubectl reads it (420); 0o400 is YAML 1.2 octal (256).
  EXPECT_EQ(v[0].configMap, (ConfigMapVolumeSource{"trainer-config", {{"config.yaml", "config.yaml", 256}}, 420, false}));
  EXPECT_EQ(v[1].secret, (SecretVolumeSource{"trainer-secret", {{"token", "token", std::nullopt}}, 256, std::nullopt}));
  EXPECT_EQ(v[2].emptyDir, (EmptyDirVolumeSource{"Memory", q("1Gi")}));
  EXPECT_EQ(v[3].persistentVolumeClaim, (PersistentVolumeClaimVolumeSource{"results-pvc", true}));
  EXPECT_EQ(v[4].name, "host");
  EXPECT_FALSE(v[4].configMap || v[4].secret || v[4].emptyDir || v[4].persistentVolumeClaim);
  EXPECT_EQ(v[4].unknown, (UnknownFields{{"hostPath", R"({"path":"/var/run"})"}}));
}

TEST(JobDecode, Status) {
  const JobStatus s = loadFullJob().status;
  EXPECT_EQ(s.state, (JobState{JobPhase::Running, "PodsRunning", "all pods are running", 1767323100000}));
  EXPECT_EQ(s.minAvailable, 3);
  EXPECT_EQ(s.taskStatusCount.at("master").phase, (std::map<PodPhase, int32_t>{{PodPhase::Running, 1}}));
  EXPECT_EQ(s.taskStatusCount.at("worker").phase,
            (std::map<PodPhase, int32_t>{{PodPhase::Running, 3}, {PodPhase::Pending, 1}}));
  EXPECT_EQ(s.pending, 1);
  EXPECT_EQ(s.running, 4);
  EXPECT_EQ(s.succeeded, 0);
  EXPECT_EQ(s.version, 2);
  EXPECT_EQ(s.retryCount, 1);
  EXPECT_EQ(s.runningDurationMs, 90000);
  EXPECT_EQ(s.controlledResources, (StringMap{{"plugin-svc", "svc"}}));
  EXPECT_EQ(s.conditions, (std::vector<JobCondition>{{JobPhase::Pending, 1767323046000},
                                                     {JobPhase::Running, 1767323100000}}));
}

TEST(JobDecode, DefaultsAndNulls) {
  auto docs = parseJobs(R"(apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata:
  name: tiny
  labels:
spec:
  tasks:
    - replicas: 2
      template:
        spec:
          containers:
            - name: c
              env:
)",
                        "tiny.yaml");
  ASSERT_TRUE(docs.ok()) << docs.error();
  const Job& job = docs->front().job;
  EXPECT_EQ(job.metadata.namespace_, "default");
  EXPECT_TRUE(job.metadata.labels.empty());
  EXPECT_EQ(job.spec.tasks[0].name, "");
  EXPECT_EQ(job.spec.tasks[0].replicas, 2);
  EXPECT_TRUE(job.spec.tasks[0].template_.spec.containers[0].env.empty());
  EXPECT_EQ(job.status, JobStatus{});
}

TEST(JobDecode, QuantitiesFromNumbersAndStrings) {
  auto docs = parseJobs(R"({"apiVersion":"batch.volcano.sh/v1alpha1","kind":"Job","metadata":{"name":"q"},
    "spec":{"tasks":[{"replicas":1,"template":{"spec":{"containers":[{"name":"c","resources":{
      "requests":{"cpu":1,"memory":"500Mi","a":1.5,"b":"500m","c":0.25,"d":"1e3"}}}]}}}]}})",
                        "q.json");
  ASSERT_TRUE(docs.ok()) << docs.error();
  const ResourceList& r = docs->front().job.spec.tasks[0].template_.spec.containers[0].resources.requests;
  EXPECT_EQ(r.at("cpu").milliValue(), 1000);
  EXPECT_EQ(r.at("memory").milliValue(), int64_t{500} * 1024 * 1024 * 1000);
  EXPECT_EQ(r.at("a").milliValue(), 1500);
  EXPECT_EQ(r.at("b").milliValue(), 500);
  EXPECT_EQ(r.at("c").milliValue(), 250);
  EXPECT_EQ(r.at("d").milliValue(), 1000000);
}

TEST(JobDecode, JsonArrayAndListKeepJobRelativePositions) {
  const std::string job = R"({"apiVersion":"batch.volcano.sh/v1alpha1","kind":"Job","metadata":{"name":"%s"}})";
  auto named = [&](const char* name) { return job.substr(0, job.find("%s")) + name + job.substr(job.find("%s") + 2); };

  auto array = parseJobs("[\n" + named("a") + ",\n" + named("b") + "\n]", "jobs.json");
  ASSERT_TRUE(array.ok()) << array.error();
  ASSERT_EQ(array->size(), 2u);
  EXPECT_EQ((*array)[0].job.metadata.name, "a");
  EXPECT_EQ((*array)[1].job.metadata.name, "b");
  EXPECT_EQ((*array)[1].source.where("metadata.name"), "jobs.json:3:68");
  EXPECT_EQ((*array)[1].source.where(""), "jobs.json:3:1");

  auto list = parseJobs(R"({"kind":"List","apiVersion":"v1","items":[)" "\n" + named("c") + "]}", "list.json");
  ASSERT_TRUE(list.ok()) << list.error();
  ASSERT_EQ(list->size(), 1u);
  EXPECT_EQ((*list)[0].job.metadata.name, "c");
  EXPECT_EQ((*list)[0].source.where("metadata.name"), "list.json:2:68");
  EXPECT_TRUE((*list)[0].source.doc.IsObject());
}

TEST(JobDecode, MultiDocumentYaml) {
  auto docs = parseJobs(R"(---
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: first}
---
# only a comment
---
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata:
  name: second
spec:
  queue: q
)",
                        "multi.yaml");
  ASSERT_TRUE(docs.ok()) << docs.error();
  ASSERT_EQ(docs->size(), 2u);
  EXPECT_EQ((*docs)[0].job.metadata.name, "first");
  EXPECT_EQ((*docs)[1].job.metadata.name, "second");
  EXPECT_EQ((*docs)[1].source.where("spec.queue"), "multi.yaml:13:10");
}

TEST(JobDecode, YamlListOfJobs) {
  auto docs = parseJobs(R"(apiVersion: v1
kind: List
items:
  - apiVersion: batch.volcano.sh/v1alpha1
    kind: Job
    metadata: {name: one}
  - apiVersion: batch.volcano.sh/v1alpha1
    kind: Job
    metadata: {name: two}
)",
                        "list.yaml");
  ASSERT_TRUE(docs.ok()) << docs.error();
  ASSERT_EQ(docs->size(), 2u);
  EXPECT_EQ((*docs)[1].job.metadata.name, "two");
  EXPECT_EQ((*docs)[1].source.where("metadata.name"), "list.yaml:9:22");
}

}  // namespace
}  // namespace jobhost
