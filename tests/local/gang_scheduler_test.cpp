// Unit tests of the local gang scheduler: admission by minResources, all-or-nothing binding (with
// minTaskMember), queueing behind capacity, phases as the sim reports them, scheduleTimeoutSeconds.
#include <gtest/gtest.h>

#include "host/cluster/local/capacity.h"
#include "host/cluster/local/gang_scheduler.h"
#include "host/workload/resources.h"

namespace jobhost::local {
namespace {

Resources cpu(int64_t milli) { return Resources{milli, 0, 0}; }

GangGroup group(const std::string& key, uint64_t seq, int32_t minMember, Resources min) {
  GangGroup g;
  g.key = key;
  g.seq = seq;
  g.minMember = minMember;
  g.minResources = min;
  return g;
}

GangPod pod(const std::string& key, const std::string& g, uint64_t seq, Resources demand,
            PodSlot slot = PodSlot::Waiting, const std::string& task = "") {
  return GangPod{key, g, task, seq, demand, slot, false};
}

// Volcano's minResources names each demand twice ("cpu" and the quota name "requests.cpu"), and
// adds limits.*: the local scheduler counts each demand once. A request-only name still counts.
TEST(GangScheduler, MinResourcesCountEachDemandOnce) {
  PodSpec spec;
  Container c;
  c.resources.requests = {{"cpu", *Quantity::parse("750m")}, {"memory", *Quantity::parse("100Mi")},
                          {"nvidia.com/gpu", *Quantity::parse("1")}};
  c.resources.limits = {{"cpu", *Quantity::parse("1")}, {"nvidia.com/gpu", *Quantity::parse("1")}};
  spec.containers = {c};
  ResourceList twoPods = podQuotaUsage(spec);
  addResources(twoPods, podQuotaUsage(spec));
  ASSERT_TRUE(twoPods.count("requests.cpu") && twoPods.count("limits.cpu") && twoPods.count("requests.nvidia.com/gpu"));
  EXPECT_EQ(fromResourceList(twoPods), (Resources{1500, 200 << 20, 2}));
  EXPECT_EQ(fromResourceList({{"requests.cpu", *Quantity::parse("2")}, {"requests.amd.com/gpu", *Quantity::parse("3")}}),
            (Resources{2000, 0, 3}));
}

TEST(GangScheduler, AdmitsWhenMinResourcesFitAndQueuesTheRest) {
  std::vector<GangGroup> groups = {group("ns/a", 1, 2, cpu(1500)), group("ns/b", 2, 2, cpu(1500))};
  GangPlan plan = planGangs(cpu(2000), groups, {}, 0);
  EXPECT_EQ(groups[0].phase, "Inqueue");
  EXPECT_EQ(groups[1].phase, "Pending");
  ASSERT_FALSE(groups[1].conditions.empty());
  EXPECT_EQ(groups[1].conditions.back().type, "Unschedulable");
  EXPECT_EQ(plan.changedGroups.size(), 2u);
}

TEST(GangScheduler, BindsAGangOnlyWhenMinMemberFit) {
  std::vector<GangGroup> groups = {group("ns/a", 1, 2, {})};
  groups[0].phase = "Inqueue";
  std::vector<GangPod> pods = {pod("ns/a-0", "ns/a", 1, cpu(1000))};
  EXPECT_TRUE(planGangs(cpu(2000), groups, pods, 0).bind.empty());  // 1 of 2 exists
  pods.push_back(pod("ns/a-1", "ns/a", 2, cpu(1000)));
  GangPlan plan = planGangs(cpu(2000), groups, pods, 0);
  EXPECT_EQ(plan.bind, (std::vector<std::string>{"ns/a-0", "ns/a-1"}));
  EXPECT_EQ(groups[0].phase, "Running");
  EXPECT_TRUE(groups[0].placed);
}

// A restart recreates the PodGroup, and the controller may create its pods before any pass saw the
// new group. The pass that admits it must bind them too: no later event asks for another pass.
TEST(GangScheduler, AGroupAdmittedWithItsPodsWaitingBindsThemInTheSamePass) {
  std::vector<GangGroup> groups = {group("ns/a", 1, 2, cpu(2000)), group("ns/b", 2, 2, cpu(2000))};
  std::vector<GangPod> pods = {pod("ns/a-0", "ns/a", 3, cpu(1000)), pod("ns/a-1", "ns/a", 4, cpu(1000)),
                               pod("ns/b-0", "ns/b", 5, cpu(1000)), pod("ns/b-1", "ns/b", 6, cpu(1000))};
  GangPlan plan = planGangs(cpu(3000), groups, pods, 0);
  EXPECT_EQ(plan.bind, (std::vector<std::string>{"ns/a-0", "ns/a-1"}));
  EXPECT_EQ(groups[0].phase, "Running");
  EXPECT_TRUE(groups[0].placed);
  EXPECT_EQ(groups[0].conditions.back().type, "Scheduled");
  EXPECT_EQ(groups[1].phase, "Pending");  // its minResources do not fit beside a's
  EXPECT_EQ(plan.changedGroups, (std::vector<std::string>{"ns/a", "ns/b"}));
}

TEST(GangScheduler, AGangThatDoesNotFitWaitsForCapacity) {
  std::vector<GangGroup> groups = {group("ns/a", 1, 1, {}), group("ns/b", 2, 2, {})};
  groups[0].phase = "Running";
  groups[1].phase = "Inqueue";
  std::vector<GangPod> pods = {pod("ns/a-0", "ns/a", 1, cpu(1000), PodSlot::Active),
                               pod("ns/b-0", "ns/b", 2, cpu(1000)), pod("ns/b-1", "ns/b", 3, cpu(1000))};
  EXPECT_TRUE(planGangs(cpu(2000), groups, pods, 0).bind.empty());
  EXPECT_EQ(groups[1].conditions.back().type, "Unschedulable");
  pods[0].slot = PodSlot::Succeeded;  // a's pod finished: its CPU is free again
  EXPECT_EQ(planGangs(cpu(2000), groups, pods, 0).bind.size(), 2u);
  EXPECT_EQ(groups[1].conditions.back().type, "Scheduled");
}

TEST(GangScheduler, LaterPodsOfAPlacedGangStartOneByOne) {
  std::vector<GangGroup> groups = {group("ns/a", 1, 1, {})};
  groups[0].phase = "Running";
  std::vector<GangPod> pods = {pod("ns/a-0", "ns/a", 1, {}, PodSlot::Active), pod("ns/a-1", "ns/a", 2, {})};
  EXPECT_EQ(planGangs(cpu(1000), groups, pods, 0).bind, std::vector<std::string>{"ns/a-1"});
}

TEST(GangScheduler, ARunningGangBelowMinMemberBecomesUnknown) {
  std::vector<GangGroup> groups = {group("ns/a", 1, 2, {})};
  groups[0].phase = "Running";
  groups[0].placed = true;
  std::vector<GangPod> pods = {pod("ns/a-0", "ns/a", 1, {}, PodSlot::Active),
                               pod("ns/a-1", "ns/a", 2, {}, PodSlot::Finished)};
  planGangs(cpu(1000), groups, pods, 0);
  EXPECT_EQ(groups[0].phase, "Unknown");
  EXPECT_EQ(groups[0].conditions.back(), (PodGroupCondition{"Unschedulable", "True", "NotEnoughTasks",
                                                            "Not enough valid tasks for gang-scheduling, valid: 1, min: 2",
                                                            0}));
}

TEST(GangScheduler, EachTaskNeedsItsMinTaskMemberWhenMinMemberCoversThem) {
  std::vector<GangGroup> groups = {group("ns/a", 1, 2, {})};
  groups[0].phase = "Inqueue";
  groups[0].minTaskMember = {{"m", 1}, {"w", 1}};
  std::vector<GangPod> pods = {pod("ns/a-w-0", "ns/a", 1, cpu(500), PodSlot::Waiting, "w"),
                               pod("ns/a-w-1", "ns/a", 2, cpu(500), PodSlot::Waiting, "w"),
                               pod("ns/a-m-0", "ns/a", 3, cpu(4000), PodSlot::Waiting, "m")};
  EXPECT_TRUE(planGangs(cpu(2000), groups, pods, 0).bind.empty());  // two fit, but no m
  EXPECT_EQ(groups[0].conditions.back().message, "2/3 tasks in gang unschedulable: task m needs 1 pods, only 0 fit");
  pods[2].demand = cpu(1000);
  EXPECT_EQ(planGangs(cpu(2000), groups, pods, 0).bind.size(), 3u);
  EXPECT_EQ(groups[0].phase, "Running");
  // minMember below the tasks' sum: Volcano skips the per-task check.
  groups = {group("ns/a", 1, 2, {})};
  groups[0].phase = "Inqueue";
  groups[0].minTaskMember = {{"m", 1}, {"w", 2}};
  pods[2].demand = cpu(4000);
  EXPECT_EQ(planGangs(cpu(2000), groups, pods, 0).bind, (std::vector<std::string>{"ns/a-w-0", "ns/a-w-1"}));
}

TEST(GangScheduler, ScheduleTimeoutIsReportedOnceExpired) {
  std::vector<GangGroup> groups = {group("ns/a", 1, 2, cpu(4000))};
  groups[0].timeoutSeconds = 5;
  groups[0].since = 1000;
  GangPlan early = planGangs(cpu(2000), groups, {}, 2000);
  ASSERT_TRUE(early.nextDeadline);
  EXPECT_EQ(*early.nextDeadline, 6000);
  EXPECT_EQ(groups[0].conditions.back().reason, "NotEnoughResources");
  GangPlan late = planGangs(cpu(2000), groups, {}, 6000);
  EXPECT_FALSE(late.nextDeadline);
  EXPECT_EQ(groups[0].phase, "Pending");
  EXPECT_EQ(groups[0].conditions.back().type, "Unschedulable");
  EXPECT_EQ(groups[0].conditions.back().reason, "ScheduleTimeout");
  EXPECT_EQ(late.changedGroups, std::vector<std::string>{"ns/a"});
  EXPECT_TRUE(planGangs(cpu(2000), groups, {}, 7000).changedGroups.empty());  // stays reported, quietly
}

TEST(GangScheduler, PodsOutsideGroupsStartWhenTheyFit) {
  std::vector<GangGroup> groups;
  std::vector<GangPod> pods = {pod("ns/x", "", 1, cpu(1500)), pod("ns/y", "", 2, cpu(1000))};
  EXPECT_EQ(planGangs(cpu(2000), groups, pods, 0).bind, std::vector<std::string>{"ns/x"});
}

}  // namespace
}  // namespace jobhost::local
