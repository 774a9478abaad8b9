// PodGroup creation (spec §6.2), getMinTaskMember, and the update predicate.
// The update predicate is table-driven, one case per compared field.
#include "host/workload/pod_group.h"

#include <gtest/gtest.h>

#include "host/workload/names.h"
#include "tests/workload/job_fixtures.h"
#include "jobhost/volcano.h"

namespace jobhost {
namespace {

using fixtures::resources;

Job partitionedJob() {
  TaskSpec ps = fixtures::task("ps", 1);
  ps.template_.spec.containers[0].resources.requests = resources({{"cpu", "1"}});
  TaskSpec worker = fixtures::task("worker", 4);
  worker.template_.spec.containers[0].resources.requests = resources({{"cpu", "2"}});
  NetworkTopologySpec tier{"hard", 1, ""};
  worker.partitionPolicy = PartitionPolicy{2, 2, tier, 1};
  Job j = fixtures::job("train", {ps, worker});
  j.spec.minAvailable = 3;
  j.spec.priorityClassName = "high";
  j.metadata.labels = {{"team", "a"}};
  j.metadata.annotations = {{"note", "x"}};
  return j;
}

TEST(MinTaskMember, MinAvailableThenPartitionsThenReplicas) {
  TaskSpec t = fixtures::task("t", 6);
  EXPECT_EQ(minTaskMember(t), 6);
  t.partitionPolicy = PartitionPolicy{3, 2, std::nullopt, 2};
  EXPECT_EQ(minTaskMember(t), 4);
  t.partitionPolicy->minPartitions = 0;
  EXPECT_EQ(minTaskMember(t), 6);
  t.minAvailable = 1;
  EXPECT_EQ(minTaskMember(t), 1);
}

TEST(BuildPodGroup, Creation) {
  Job j = partitionedJob();
  PodGroup pg = buildPodGroup(j, {});
  EXPECT_EQ(pg.metadata.name, "train-uid-1");
  EXPECT_EQ(pg.metadata.namespace_, "ns");
  EXPECT_EQ(pg.metadata.labels, j.metadata.labels);
  EXPECT_EQ(pg.metadata.annotations, j.metadata.annotations);
  ASSERT_EQ(pg.metadata.ownerReferences.size(), 1u);
  EXPECT_EQ(pg.metadata.ownerReferences[0], volcano::controllerRef(j));
  EXPECT_EQ(pg.spec.minMember, 3);
  EXPECT_TRUE(pg.spec.minTaskMemberSet);
  EXPECT_EQ(pg.spec.minTaskMember, (std::map<std::string, int32_t>{{"ps", 1}, {"worker", 2}}));
  EXPECT_EQ(pg.spec.queue, "default");
  EXPECT_EQ(pg.spec.priorityClassName, "high");
  // minAvailable 3 < total 1 + 2: first-count path, ps x1 then worker x2.
  EXPECT_EQ(pg.spec.minResources, resources({{"count/pods", "3"}, {"cpu", "5"}, {"pods", "3"}, {"requests.cpu", "5"}}));
  EXPECT_FALSE(pg.spec.networkTopology.has_value());
  ASSERT_EQ(pg.spec.subGroupPolicy.size(), 1u);
  const SubGroupPolicy& sg = pg.spec.subGroupPolicy[0];
  EXPECT_EQ(sg.name, "worker");
  EXPECT_EQ(sg.subGroupSize, 2);
  EXPECT_EQ(sg.minSubGroups, 1);
  EXPECT_EQ(sg.labelSelector.matchLabels, (StringMap{{"volcano.sh/task-spec", "worker"}}));
  EXPECT_EQ(sg.matchLabelKeys, (std::vector<std::string>{"volcano.sh/partition-id"}));
  EXPECT_EQ(sg.networkTopology, (NetworkTopologySpec{"hard", 1, ""}));
  EXPECT_EQ(pg.status, PodGroup::Status{});
}

TEST(BuildPodGroup, NetworkTopologyKeepsAllowedTierElseName) {
  Job j = partitionedJob();
  j.spec.networkTopology = NetworkTopologySpec{"soft", 2, "tier-name"};
  EXPECT_EQ(buildPodGroup(j, {}).spec.networkTopology, (NetworkTopologySpec{"soft", 2, ""}));
  j.spec.networkTopology = NetworkTopologySpec{"hard", std::nullopt, "tier-name"};
  EXPECT_EQ(buildPodGroup(j, {}).spec.networkTopology, (NetworkTopologySpec{"hard", std::nullopt, "tier-name"}));
}

TEST(BuildPodGroup, MinResourcesUsesPriorityClasses) {
  Job j = partitionedJob();
  j.spec.tasks[1].template_.spec.priorityClassName = "high";
  // worker (priority 10) first: worker x3 covers minAvailable 3.
  EXPECT_EQ(buildPodGroup(j, {{"high", 10}}).spec.minResources,
            resources({{"count/pods", "3"}, {"cpu", "6"}, {"pods", "3"}, {"requests.cpu", "6"}}));
}

struct UpdateCase {
  const char* name;
  void (*change)(PodGroup& existing);
  bool needsUpdate;
};

class PodGroupUpdate : public testing::TestWithParam<UpdateCase> {};

TEST_P(PodGroupUpdate, Predicate) {
  const PodGroup desired = buildPodGroup(partitionedJob(), {});
  PodGroup existing = desired;
  GetParam().change(existing);
  EXPECT_EQ(podGroupNeedsUpdate(existing, desired), GetParam().needsUpdate);
  PodGroup updated = existing;
  EXPECT_EQ(updatePodGroup(updated, desired), GetParam().needsUpdate);
  EXPECT_FALSE(podGroupNeedsUpdate(updated, desired));  // after the update nothing differs
}

INSTANTIATE_TEST_SUITE_P(
    Cases, PodGroupUpdate,
    testing::Values(
        UpdateCase{"Same", [](PodGroup&) {}, false},
        UpdateCase{"PriorityClass", [](PodGroup& pg) { pg.spec.priorityClassName = "low"; }, true},
        UpdateCase{"MinMember", [](PodGroup& pg) { pg.spec.minMember = 1; }, true},
        UpdateCase{"MinResources", [](PodGroup& pg) { pg.spec.minResources->at("cpu") = fixtures::qty("9"); }, true},
        UpdateCase{"MinResourcesUnset", [](PodGroup& pg) { pg.spec.minResources.reset(); }, true},
        UpdateCase{"MinResourcesSameValueOtherFormat",
                   [](PodGroup& pg) { pg.spec.minResources->at("cpu") = fixtures::qty("5000m"); }, false},
        UpdateCase{"MinTaskMemberNil", [](PodGroup& pg) { pg.spec.minTaskMemberSet = false; pg.spec.minTaskMember.clear(); }, true},
        UpdateCase{"MinTaskMemberMissing", [](PodGroup& pg) { pg.spec.minTaskMember.erase("ps"); }, true},
        UpdateCase{"MinTaskMemberDifferent", [](PodGroup& pg) { pg.spec.minTaskMember["worker"] = 4; }, true},
        UpdateCase{"MinTaskMemberExtraEntryIsKept", [](PodGroup& pg) { pg.spec.minTaskMember["gone"] = 1; }, false},
        UpdateCase{"SubGroupMissing", [](PodGroup& pg) { pg.spec.subGroupPolicy.clear(); }, true},
        UpdateCase{"SubGroupDifferent", [](PodGroup& pg) { pg.spec.subGroupPolicy[0].minSubGroups = 2; }, true},
        UpdateCase{"SubGroupForUnpartitionedTask",
                   [](PodGroup& pg) { pg.spec.subGroupPolicy.push_back(SubGroupPolicy{"ps", 1, 1, {}, {}, std::nullopt}); }, true},
        UpdateCase{"SubGroupForGoneTaskIsNotNoticed",
                   [](PodGroup& pg) { pg.spec.subGroupPolicy.push_back(SubGroupPolicy{"gone", 1, 1, {}, {}, std::nullopt}); }, false},
        UpdateCase{"QueueAndTopologyAreNotCompared",
                   [](PodGroup& pg) {
                     pg.spec.queue = "other";
                     pg.spec.networkTopology = NetworkTopologySpec{"hard", 1, ""};
                   },
                   false}),
    [](const testing::TestParamInfo<UpdateCase>& info) { return info.param.name; });

TEST(PodGroupUpdate, UpdateMergesMinTaskMemberAndReplacesSubGroups) {
  const PodGroup desired = buildPodGroup(partitionedJob(), {});
  PodGroup existing = desired;
  existing.spec.minTaskMember = {{"gone", 7}, {"ps", 9}};
  existing.spec.subGroupPolicy.clear();
  existing.spec.queue = "kept";
  ASSERT_TRUE(updatePodGroup(existing, desired));
  EXPECT_EQ(existing.spec.minTaskMember, (std::map<std::string, int32_t>{{"gone", 7}, {"ps", 1}, {"worker", 2}}));
  EXPECT_EQ(existing.spec.subGroupPolicy, desired.spec.subGroupPolicy);
  EXPECT_EQ(existing.spec.queue, "kept");
}

}  // namespace
}  // namespace jobhost
