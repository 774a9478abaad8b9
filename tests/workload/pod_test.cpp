// buildPod: name, owner, spec defaults, job volumes, every label and annotation of spec §6.1, the
// pod set's containers and the pipeline's labels; indexed copies of podTemplate are the same pods.
#include "host/workload/pod.h"

#include <gtest/gtest.h>

#include "host/workload/names.h"
#include "tests/workload/job_fixtures.h"
#include "jobhost/volcano.h"

namespace jobhost {
namespace {

Job trainJob() {
  TaskSpec worker = fixtures::task("worker", 4);
  worker.template_.metadata.labels = {{"app", "train"}};
  worker.template_.metadata.annotations = {{"note", "hi"}};
  worker.template_.spec.initContainers.push_back(fixtures::container("init"));
  Job j = fixtures::job("train", {fixtures::task("master", 1), worker});
  j.status.version = 2;
  j.status.retryCount = 1;
  return j;
}

TEST(BuildPod, NameOwnerAndExactMetadata) {
  Job j = trainJob();
  Pod pod = buildPod(j, j.spec.tasks[1], 3);
  EXPECT_EQ(pod.metadata.name, "train-worker-3");
  EXPECT_EQ(pod.metadata.namespace_, "ns");
  ASSERT_EQ(pod.metadata.ownerReferences.size(), 1u);
  EXPECT_EQ(pod.metadata.ownerReferences[0], volcano::controllerRef(j));
  EXPECT_EQ(pod.metadata.annotations, (StringMap{{"note", "hi"},
                                                  {"scheduling.k8s.io/group-name", "train-uid-1"},
                                                  {"volcano.sh/job-name", "train"},
                                                  {"volcano.sh/job-retry-count", "1"},
                                                  {"volcano.sh/job-version", "2"},
                                                  {"volcano.sh/queue-name", "default"},
                                                  {"volcano.sh/task-index", "3"},
                                                  {"volcano.sh/task-spec", "worker"},
                                                  {"volcano.sh/template-uid", "train-worker"}}));
  EXPECT_EQ(pod.metadata.labels, (StringMap{{"app", "train"},
                                             {"volcano.sh/job-name", "train"},
                                             {"volcano.sh/job-namespace", "ns"},
                                             {"volcano.sh/queue-name", "default"},
                                             {"volcano.sh/task-index", "3"},
                                             {"volcano.sh/task-spec", "worker"}}));
  EXPECT_EQ(pod.status, PodStatus{});
}

TEST(BuildPod, SchedulerAndPriorityClassDefaultToTheJobs) {
  Job j = trainJob();
  j.spec.priorityClassName = "high";
  Pod pod = buildPod(j, j.spec.tasks[0], 0);
  EXPECT_EQ(pod.spec.schedulerName, "volcano");
  EXPECT_EQ(pod.spec.priorityClassName, "high");
  j.spec.tasks[0].template_.spec.schedulerName = "other";
  j.spec.tasks[0].template_.spec.priorityClassName = "low";
  pod = buildPod(j, j.spec.tasks[0], 0);
  EXPECT_EQ(pod.spec.schedulerName, "other");
  EXPECT_EQ(pod.spec.priorityClassName, "low");
}

TEST(BuildPod, TemplateSpecIsCopied) {
  Job j = trainJob();
  PodSpec& tpl = j.spec.tasks[1].template_.spec;
  tpl.hostname = "h";
  tpl.subdomain = "s";
  tpl.restartPolicy = "Never";
  tpl.dnsPolicy = "Default";
  tpl.hostNetwork = true;
  tpl.unknown.emplace_back("nodeSelector", "{\"a\":\"b\"}");
  tpl.volumes.push_back(Volume{"scratch", std::nullopt, std::nullopt, EmptyDirVolumeSource{}, std::nullopt, {}});
  Pod pod = buildPod(j, j.spec.tasks[1], 0);
  PodSpec expected = tpl;
  expected.schedulerName = "volcano";
  EXPECT_EQ(pod.spec, expected);
}

TEST(BuildPod, JobVolumesBecomeClaimsMountedInContainersOnly) {
  Job j = trainJob();
  j.spec.volumes = {JobVolume{"/data", "claim-a", std::nullopt}, JobVolume{"/logs", "claim-b", std::nullopt},
                    JobVolume{"/again", "claim-a", std::nullopt}};
  Pod pod = buildPod(j, j.spec.tasks[1], 0);
  const std::string a = jobVolumeName(j, "claim-a"), b = jobVolumeName(j, "claim-b");
  ASSERT_EQ(pod.spec.volumes.size(), 2u);  // claim-a once: the repeat adds neither volume nor mount
  EXPECT_EQ(pod.spec.volumes[0].name, a);
  EXPECT_EQ(pod.spec.volumes[0].persistentVolumeClaim->claimName, "claim-a");
  EXPECT_EQ(pod.spec.volumes[1].name, b);
  EXPECT_EQ(pod.spec.volumes[1].persistentVolumeClaim->claimName, "claim-b");
  ASSERT_EQ(pod.spec.containers[0].volumeMounts.size(), 2u);
  EXPECT_EQ(pod.spec.containers[0].volumeMounts[0].name, a);
  EXPECT_EQ(pod.spec.containers[0].volumeMounts[0].mountPath, "/data");
  EXPECT_EQ(pod.spec.containers[0].volumeMounts[1].mountPath, "/logs");
  EXPECT_TRUE(pod.spec.initContainers[0].volumeMounts.empty());
  EXPECT_EQ(buildPod(j, j.spec.tasks[1], 1).spec.volumes, pod.spec.volumes);  // same names in every pod
}

TEST(BuildPod, JobAnnotationsAndLabelsThatArePropagated) {
  Job j = trainJob();
  j.metadata.annotations = {{"volcano.sh/preemptable", "true"}, {"volcano.sh/cooldown-time", "60s"},
                            {"volcano.sh/revocable-zone", "*"}, {"volcano.sh/jdb-min-available", "2"},
                            {"volcano.sh/jdb-max-unavailable", "1"}, {"other", "x"}};
  j.metadata.labels = {{"volcano.sh/preemptable", "false"}, {"volcano.sh/cooldown-time", "30s"}, {"team", "a"}};
  j.spec.tasks[0].topologyPolicy = "single-numa-node";
  Pod pod = buildPod(j, j.spec.tasks[0], 0);
  const auto& ann = pod.metadata.annotations;
  EXPECT_EQ(ann.at("volcano.sh/preemptable"), "true");
  EXPECT_EQ(ann.at("volcano.sh/cooldown-time"), "60s");
  EXPECT_EQ(ann.at("volcano.sh/revocable-zone"), "*");
  EXPECT_EQ(ann.at("volcano.sh/jdb-min-available"), "2");
  EXPECT_EQ(ann.count("volcano.sh/jdb-max-unavailable"), 0u);  // only when min-available is absent
  EXPECT_EQ(ann.at("volcano.sh/numa-topology-policy"), "single-numa-node");
  EXPECT_EQ(ann.count("other"), 0u);
  const auto& lab = pod.metadata.labels;
  EXPECT_EQ(lab.at("volcano.sh/preemptable"), "false");
  EXPECT_EQ(lab.at("volcano.sh/cooldown-time"), "30s");
  EXPECT_EQ(lab.count("team"), 0u);
  EXPECT_EQ(lab.count("volcano.sh/revocable-zone"), 0u);

  j.metadata.annotations.erase("volcano.sh/jdb-min-available");
  EXPECT_EQ(buildPod(j, j.spec.tasks[0], 0).metadata.annotations.at("volcano.sh/jdb-max-unavailable"), "1");
}

TEST(BuildPod, ForwardingMarksAnnotationAndLabel) {
  Job j = trainJob();
  Pod pod = buildPod(j, j.spec.tasks[0], 0, nullptr, nullptr, true);
  EXPECT_EQ(pod.metadata.annotations.at("volcano.sh/job-forwarding"), "true");
  EXPECT_EQ(pod.metadata.labels.at("volcano.sh/job-forwarding"), "true");
  EXPECT_EQ(buildPod(j, j.spec.tasks[0], 0).metadata.labels.count("volcano.sh/job-forwarding"), 0u);
}

TEST(BuildPod, PartitionIdIsIndexDividedByPartitionSize) {
  Job j = trainJob();
  j.spec.tasks[1].partitionPolicy = PartitionPolicy{2, 2, std::nullopt, 1};
  EXPECT_EQ(buildPod(j, j.spec.tasks[1], 0).metadata.labels.at("volcano.sh/partition-id"), "0");
  EXPECT_EQ(buildPod(j, j.spec.tasks[1], 1).metadata.labels.at("volcano.sh/partition-id"), "0");
  EXPECT_EQ(buildPod(j, j.spec.tasks[1], 3).metadata.labels.at("volcano.sh/partition-id"), "1");
  j.spec.tasks[1].partitionPolicy->partitionSize = 0;
  EXPECT_EQ(buildPod(j, j.spec.tasks[1], 3).metadata.labels.at("volcano.sh/partition-id"), "0");
  EXPECT_EQ(buildPod(j, j.spec.tasks[0], 0).metadata.labels.count("volcano.sh/partition-id"), 0u);
}

TEST(BuildPod, EmptyTaskNameUsesDefaultTaskSpec) {
  Job j = fixtures::job("j", {fixtures::task("", 1)});
  Pod pod = buildPod(j, j.spec.tasks[0], 0);
  EXPECT_EQ(pod.metadata.name, "j--0");
  EXPECT_EQ(pod.metadata.annotations.at("volcano.sh/task-spec"), "default");
  EXPECT_EQ(pod.metadata.labels.at("volcano.sh/task-spec"), "default");
  EXPECT_EQ(pod.metadata.annotations.at("volcano.sh/template-uid"), "j-");
}

TEST(BuildPod, PodSetSuppliesContainersAndPipelineLabelsButVolcanoKeysWin) {
  Job j = trainJob();
  PodSet set;
  set.name = "worker";
  set.containers = {fixtures::container("patched", "img:2")};
  set.initContainers = {};
  set.volumes = {Volume{"cfg", ConfigMapVolumeSource{"cm", {}, std::nullopt, std::nullopt}, std::nullopt, std::nullopt, std::nullopt, {}}};
  set.podLabels = {{"set", "1"}, {"volcano.sh/job-name", "spoofed"}, {"app", "override"}};
  set.podAnnotations = {{"set-ann", "1"}};
  SchedulerInfo sched;
  sched.podLabels = {{"scheduling.x-k8s.io/pod-group", "pg"}, {"set", "2"}};
  sched.podAnnotations = {{"sched-ann", "1"}};
  Pod pod = buildPod(j, j.spec.tasks[1], 0, &set, &sched);
  ASSERT_EQ(pod.spec.containers.size(), 1u);
  EXPECT_EQ(pod.spec.containers[0].name, "patched");
  EXPECT_TRUE(pod.spec.initContainers.empty());
  ASSERT_EQ(pod.spec.volumes.size(), 1u);
  EXPECT_EQ(pod.spec.volumes[0].name, "cfg");
  EXPECT_EQ(pod.metadata.labels.at("app"), "override");
  EXPECT_EQ(pod.metadata.labels.at("set"), "2");
  EXPECT_EQ(pod.metadata.labels.at("scheduling.x-k8s.io/pod-group"), "pg");
  EXPECT_EQ(pod.metadata.labels.at("volcano.sh/job-name"), "train");
  EXPECT_EQ(pod.metadata.annotations.at("set-ann"), "1");
  EXPECT_EQ(pod.metadata.annotations.at("sched-ann"), "1");
  EXPECT_EQ(pod.metadata.annotations.at("note"), "hi");
}

// makePods copies one template per task and sets each copy's index: every copy is exactly the pod
// buildPod makes for that index, whatever the template carried (a template task-index label, a
// partition policy) and however many copies came before it.
TEST(PodTemplate, EachIndexedCopyIsThePodOfThatIndex) {
  Job j = trainJob();
  j.spec.tasks[1].template_.metadata.labels["volcano.sh/task-index"] = "spoofed";
  j.spec.tasks[1].partitionPolicy = PartitionPolicy{2, 2, std::nullopt, 1};
  const Pod tpl = podTemplate(j, j.spec.tasks[1]);
  EXPECT_TRUE(tpl.metadata.name.empty());
  EXPECT_EQ(tpl.metadata.labels.count("volcano.sh/partition-id"), 0u);
  Pod reused = tpl;
  for (int32_t i : {3, 0, 2}) {
    Pod copy = tpl;
    setPodIndex(copy, j, j.spec.tasks[1], i);
    setPodIndex(reused, j, j.spec.tasks[1], i);
    const Pod want = buildPod(j, j.spec.tasks[1], i);
    EXPECT_EQ(copy, want) << i;
    EXPECT_EQ(reused, want) << i;
    EXPECT_EQ(want.metadata.name, "train-worker-" + std::to_string(i));
    EXPECT_EQ(want.metadata.labels.at("volcano.sh/task-index"), std::to_string(i));
    EXPECT_EQ(want.metadata.annotations.at("volcano.sh/task-index"), std::to_string(i));
    EXPECT_EQ(want.metadata.labels.at("volcano.sh/partition-id"), std::to_string(i / 2));
  }
}


}  // namespace
}  // namespace jobhost
