// Conformance audit of host/workload against spec §6.1–§6.3: the rules the other workload tests
// leave implicit (append order of job volumes, Volcano keys overriding template keys, zero values).
#include <gtest/gtest.h>

#include "host/workload/min_resources.h"
#include "host/workload/names.h"
#include "host/workload/pod.h"
#include "host/workload/pod_group.h"
#include "host/workload/resources.h"
#include "tests/workload/job_fixtures.h"

namespace jobhost {
namespace {

using fixtures::resources;

// createJobPod appends the job volumes after the template's own volumes, and each mount after the
// container's own mounts.
TEST(AuditBuildPod, JobVolumesAndMountsAreAppendedAfterTheTemplates) {
  TaskSpec worker = fixtures::task("worker", 2);
  PodSpec& tpl = worker.template_.spec;
  tpl.volumes.push_back(Volume{"scratch", std::nullopt, std::nullopt, EmptyDirVolumeSource{}, std::nullopt, {}});
  tpl.containers[0].volumeMounts.push_back(VolumeMount{"scratch", "/scratch", "", false, {}});
  tpl.containers.push_back(fixtures::container("sidecar"));
  Job j = fixtures::job("train", {worker});
  j.spec.volumes = {JobVolume{"/data", "claim-a", std::nullopt}};
  const std::string a = jobVolumeName(j, "claim-a");

  Pod pod = buildPod(j, j.spec.tasks[0], 1);
  ASSERT_EQ(pod.spec.volumes.size(), 2u);
  EXPECT_EQ(pod.spec.volumes[0].name, "scratch");
  EXPECT_EQ(pod.spec.volumes[1].name, a);
  EXPECT_EQ(pod.spec.volumes[1].persistentVolumeClaim->claimName, "claim-a");
  EXPECT_EQ(pod.spec.containers[0].volumeMounts,
            (std::vector<VolumeMount>{{"scratch", "/scratch", "", false, {}}, {a, "/data", "", false, {}}}));
  EXPECT_EQ(pod.spec.containers[1].volumeMounts, (std::vector<VolumeMount>{{a, "/data", "", false, {}}}));
}

// Volcano writes its keys over the template's; a template key Volcano copies only conditionally
// (preemptable, cooldown-time) stays as the template wrote it when the job does not carry it.
TEST(AuditBuildPod, VolcanoKeysOverwriteTheTemplatesAndConditionalKeysKeepThem) {
  TaskSpec worker = fixtures::task("worker", 1);
  worker.template_.metadata.annotations = {{"scheduling.k8s.io/group-name", "other-pg"},
                                           {"volcano.sh/job-version", "99"},
                                           {"volcano.sh/preemptable", "false"}};
  worker.template_.metadata.labels = {{"volcano.sh/queue-name", "q"}, {"volcano.sh/cooldown-time", "5s"}};
  Job j = fixtures::job("train", {worker});
  Pod pod = buildPod(j, j.spec.tasks[0], 0);
  EXPECT_EQ(pod.metadata.annotations.at("scheduling.k8s.io/group-name"), "train-uid-1");
  EXPECT_EQ(pod.metadata.annotations.at("volcano.sh/job-version"), "0");
  EXPECT_EQ(pod.metadata.annotations.at("volcano.sh/preemptable"), "false");
  EXPECT_EQ(pod.metadata.labels.at("volcano.sh/queue-name"), "default");
  EXPECT_EQ(pod.metadata.labels.at("volcano.sh/cooldown-time"), "5s");

  j.metadata.annotations = {{"volcano.sh/preemptable", "true"}};
  j.metadata.labels = {{"volcano.sh/cooldown-time", "1m"}};
  pod = buildPod(j, j.spec.tasks[0], 0);
  EXPECT_EQ(pod.metadata.annotations.at("volcano.sh/preemptable"), "true");
  EXPECT_EQ(pod.metadata.labels.at("volcano.sh/cooldown-time"), "1m");
}

TEST(AuditBuildPod, EmptySchedulerAndPriorityClassStayEmptyWhenTheJobHasNone) {
  Job j = fixtures::job("train", {fixtures::task("worker", 1)});
  j.spec.schedulerName.clear();
  Pod pod = buildPod(j, j.spec.tasks[0], 0);
  EXPECT_EQ(pod.spec.schedulerName, "");
  EXPECT_EQ(pod.spec.priorityClassName, "");
}

TEST(AuditBuildPod, PartitionIdOnlyOnThePartitionedTask) {
  TaskSpec worker = fixtures::task("worker", 6);
  worker.partitionPolicy = PartitionPolicy{3, 2, std::nullopt, 1};
  Job j = fixtures::job("train", {fixtures::task("ps", 1), worker});
  EXPECT_EQ(buildPod(j, j.spec.tasks[1], 5).metadata.labels.at("volcano.sh/partition-id"), "2");
  EXPECT_EQ(buildPod(j, j.spec.tasks[1], 4).metadata.labels.at("volcano.sh/partition-id"), "2");
  EXPECT_EQ(buildPod(j, j.spec.tasks[1], 3).metadata.labels.at("volcano.sh/partition-id"), "1");
  EXPECT_EQ(buildPod(j, j.spec.tasks[0], 0).metadata.labels.count("volcano.sh/partition-id"), 0u);
  EXPECT_EQ(buildPod(j, j.spec.tasks[1], 5).metadata.annotations.count("volcano.sh/partition-id"), 0u);
}

TEST(AuditMinTaskMember, ZeroMinAvailableAndZeroPartitionSize) {
  TaskSpec t = fixtures::task("t", 6);
  t.partitionPolicy = PartitionPolicy{3, 0, std::nullopt, 2};
  EXPECT_EQ(minTaskMember(t), 6);  // partitionSize 0: replicas
  t.minAvailable = 0;
  EXPECT_EQ(minTaskMember(t), 0);  // a set minAvailable wins even when 0
}

// The job-level topology keeps highestTierAllowed or highestTierName; a partition's topology is
// copied into its subGroupPolicy with all three fields.
TEST(AuditBuildPodGroup, PartitionTopologyIsCopiedWhole) {
  TaskSpec worker = fixtures::task("worker", 4);
  worker.partitionPolicy = PartitionPolicy{2, 2, NetworkTopologySpec{"soft", 2, "tier-name"}, 1};
  Job j = fixtures::job("train", {worker});
  j.spec.networkTopology = NetworkTopologySpec{"soft", 2, "tier-name"};
  PodGroup pg = buildPodGroup(j, {});
  EXPECT_EQ(pg.spec.networkTopology, (NetworkTopologySpec{"soft", 2, ""}));
  ASSERT_EQ(pg.spec.subGroupPolicy.size(), 1u);
  EXPECT_EQ(pg.spec.subGroupPolicy[0].networkTopology, (NetworkTopologySpec{"soft", 2, "tier-name"}));
  EXPECT_EQ(pg.spec.minTaskMember, (std::map<std::string, int32_t>{{"worker", 2}}));
}

// minAvailable 0 on a task is set, so it contributes 0 to totalMinAvailable and all its replicas
// are spare: total 0 + 1 = 1 <= job minAvailable 2 takes the min-then-spare path.
TEST(AuditMinResources, ZeroTaskMinAvailableMakesEveryReplicaSpare) {
  TaskSpec a = fixtures::task("a", 2, 0);
  a.template_.spec.containers[0].resources.requests = resources({{"cpu", "1"}});
  TaskSpec b = fixtures::task("b", 1);
  b.template_.spec.containers[0].resources.requests = resources({{"cpu", "2"}});
  Job j = fixtures::job("j", {a, b});
  j.spec.minAvailable = 2;
  EXPECT_EQ(calcPGMinResources(j, {}),
            resources({{"count/pods", "2"}, {"cpu", "2"}, {"pods", "2"}, {"requests.cpu", "2"}}));
}

// The template's init containers and sidecars count as Kubernetes' PodRequests counts them.
TEST(AuditMinResources, InitContainersAndSidecarsOfTheTemplateCount) {
  TaskSpec t = fixtures::task("t", 2);
  PodSpec& spec = t.template_.spec;
  spec.containers[0].resources.requests = resources({{"cpu", "1"}});
  Container sidecar = fixtures::container("side");
  sidecar.resources.requests = resources({{"cpu", "500m"}});
  sidecar.unknown.emplace_back("restartPolicy", "\"Always\"");
  Container init = fixtures::container("init");
  init.resources.requests = resources({{"cpu", "3"}});
  spec.initContainers = {sidecar, init};
  Job j = fixtures::job("j", {t});
  // per pod: max(1 + 500m, 3 + 500m) = 3500m; two pods
  EXPECT_EQ(calcPGMinResources(j, {}),
            resources({{"count/pods", "2"}, {"cpu", "7"}, {"pods", "2"}, {"requests.cpu", "7"}}));
}

// Templates are not defaulted: an extended resource given only as a limit is not quota usage.
TEST(AuditPodQuotaUsage, ExtendedResourceLimitWithoutRequestIsNotCounted) {
  PodSpec spec;
  spec.containers = {fixtures::container("a")};
  spec.containers[0].resources.limits = resources({{"nvidia.com/gpu", "1"}, {"memory", "1Gi"}});
  EXPECT_EQ(podQuotaUsage(spec), resources({{"count/pods", "1"}, {"pods", "1"}, {"limits.memory", "1Gi"}}));
}

}  // namespace
}  // namespace jobhost
