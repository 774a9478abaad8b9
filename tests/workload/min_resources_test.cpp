// calcPGMinResources: both paths, priority order with Go's sort.Sort tie rule, missing priority
// classes, zero counts and quantity arithmetic.
#include "host/workload/min_resources.h"

#include <gtest/gtest.h>

#include "tests/workload/job_fixtures.h"

namespace jobhost {
namespace {

using fixtures::resources;

TaskSpec taskWith(std::string name, int32_t replicas, std::optional<int32_t> minAvailable, ResourceList requests,
                  std::string priorityClass = "") {
  TaskSpec t = fixtures::task(std::move(name), replicas, minAvailable);
  t.template_.spec.containers[0].resources.requests = std::move(requests);
  t.template_.spec.priorityClassName = std::move(priorityClass);
  return t;
}

ResourceList usage(const char* cpu, const char* pods) {
  return resources({{"count/pods", pods}, {"cpu", cpu}, {"pods", pods}, {"requests.cpu", cpu}});
}

const PriorityClassValues kPriorities = {{"high", 100}, {"low", -5}};

TEST(MinResources, FirstCountTakesHighestPriorityTasksFirst) {
  // total minAvailable 5 > job minAvailable 4: first 4 pods in priority order (b then a).
  Job j = fixtures::job("j", {taskWith("a", 2, std::nullopt, resources({{"cpu", "1"}})),
                              taskWith("b", 3, std::nullopt, resources({{"cpu", "2"}}), "high")});
  j.spec.minAvailable = 4;
  EXPECT_EQ(calcPGMinResources(j, kPriorities), usage("7", "4"));  // 3 x 2 + 1 x 1
}

TEST(MinResources, FirstCountStopsInsideATask) {
  Job j = fixtures::job("j", {taskWith("a", 5, std::nullopt, resources({{"cpu", "100m"}}))});
  j.spec.minAvailable = 3;
  EXPECT_EQ(calcPGMinResources(j, kPriorities), usage("300m", "3"));
}

TEST(MinResources, MinAvailablePassThenSparePass) {
  // total minAvailable 1 + 2 = 3 <= job minAvailable 5: first each task's minAvailable, then spares.
  Job j = fixtures::job("j", {taskWith("a", 3, 1, resources({{"cpu", "1"}})), taskWith("b", 2, 2, resources({{"cpu", "2"}}))});
  j.spec.minAvailable = 5;
  // pass 1: a x1 (1) + b x2 (4); pass 2: a's 2 spares (2); b has none (minAvailable == replicas).
  EXPECT_EQ(calcPGMinResources(j, kPriorities), usage("7", "5"));
}

TEST(MinResources, MinAvailablePassStopsAtJobMinAvailable) {
  Job j = fixtures::job("j", {taskWith("a", 3, 2, resources({{"cpu", "1"}})), taskWith("b", 2, 1, resources({{"cpu", "2"}}))});
  j.spec.minAvailable = 3;  // == total minAvailable
  EXPECT_EQ(calcPGMinResources(j, kPriorities), usage("4", "3"));
}

TEST(MinResources, SparePassCountsAllReplicasOfTasksWithoutMinAvailable) {
  Job j = fixtures::job("j", {taskWith("a", 2, 1, resources({{"cpu", "1"}})), taskWith("b", 4, std::nullopt, resources({{"cpu", "2"}}))});
  j.spec.minAvailable = 6;  // total minAvailable 1 + 4 = 5
  // pass 1: a x1 (b has no minAvailable); pass 2: a's spare x1, then b x4.
  EXPECT_EQ(calcPGMinResources(j, kPriorities), usage("10", "6"));
}

TEST(MinResources, PriorityOrderInSecondPath) {
  Job j = fixtures::job("j", {taskWith("a", 2, 1, resources({{"cpu", "1"}}), "low"),
                              taskWith("b", 2, 1, resources({{"cpu", "3"}}), "high")});
  j.spec.minAvailable = 3;  // pass 1: b x1, a x1; pass 2 (b first): b x1
  EXPECT_EQ(calcPGMinResources(j, kPriorities), usage("7", "3"));
}

TEST(MinResources, EqualPrioritiesUpToTwelveTasksKeepTaskOrder) {
  Job j = fixtures::job("j", {taskWith("a", 2, std::nullopt, resources({{"cpu", "1"}})),
                              taskWith("b", 2, std::nullopt, resources({{"cpu", "5"}})),
                              taskWith("c", 2, std::nullopt, resources({{"cpu", "9"}}))});
  j.spec.minAvailable = 3;
  EXPECT_EQ(calcPGMinResources(j, kPriorities), usage("7", "3"));  // a x2, b x1
}

TEST(MinResources, MoreThanTwelveTasksBreakTiesAsGosSortDoes) {
  // Go's sort.Sort is an insertion sort only up to 12 elements. Over 13 tasks with these
  // priorities it puts t8 before t7 (both 3): the 5 pods counted are t4 t12 t1 t2 t8.
  const int priorities[] = {-3, 4, 4, 2, 5, 0, -3, 3, 3, -3, -5, -5, 5};
  PriorityClassValues classes;
  std::vector<TaskSpec> tasks;
  for (int i = 0; i < 13; ++i) {
    const std::string cls = "p" + std::to_string(priorities[i]);
    classes[cls] = priorities[i];
    const std::string cpu = std::to_string(i + 1);
    tasks.push_back(taskWith("t" + std::to_string(i), 1, std::nullopt, resources({{"cpu", cpu.c_str()}}), cls));
  }
  Job j = fixtures::job("j", std::move(tasks));
  j.spec.minAvailable = 5;
  EXPECT_EQ(calcPGMinResources(j, classes), usage("32", "5"));  // 5 + 13 + 2 + 3 + 9; a stable sort gives 31
}

TEST(MinResources, UnknownPriorityClassCountsAsZeroAndJobPriorityIsIgnored) {
  Job j = fixtures::job("j", {taskWith("a", 1, std::nullopt, resources({{"cpu", "1"}}), "no-such-class"),
                              taskWith("b", 1, std::nullopt, resources({{"cpu", "2"}}), "low")});
  j.spec.priorityClassName = "high";
  j.spec.minAvailable = 1;  // a (0) before b (-5)
  EXPECT_EQ(calcPGMinResources(j, kPriorities), usage("1", "1"));
}

TEST(MinResources, ZeroPodsGiveAnEmptyList) {
  Job j = fixtures::job("j", {taskWith("a", 2, 1, resources({{"cpu", "1"}}))});
  j.spec.minAvailable = 0;
  EXPECT_EQ(calcPGMinResources(j, kPriorities), ResourceList{});
}

TEST(MinResources, QuantityArithmeticKeepsUnits) {
  Job j = fixtures::job("j", {taskWith("a", 3, std::nullopt,
                                       resources({{"cpu", "250m"}, {"memory", "512Mi"}, {"nvidia.com/gpu", "1"}}))});
  const ResourceList r = calcPGMinResources(j, kPriorities);
  EXPECT_EQ(r.at("cpu").toString(), "750m");
  EXPECT_EQ(r.at("memory").toString(), "1536Mi");
  EXPECT_EQ(r.at("requests.memory").toString(), "1536Mi");
  EXPECT_EQ(r.at("nvidia.com/gpu").toString(), "3");
  EXPECT_EQ(r.at("requests.nvidia.com/gpu").toString(), "3");
  EXPECT_EQ(r.at("pods").toString(), "3");
  EXPECT_EQ(r.at("count/pods").toString(), "3");
}

// Each pod's quota usage includes the template's overhead (Kubernetes' PodUsageFunc).
TEST(MinResources, OverheadCountsForEveryPod) {
  TaskSpec t = taskWith("a", 2, std::nullopt, resources({{"cpu", "100m"}}));
  t.template_.spec.containers[0].resources.limits = resources({{"cpu", "200m"}});
  t.template_.spec.unknown = {{"overhead", R"({"cpu":"250m","memory":"120Mi"})"}};
  const ResourceList r = calcPGMinResources(fixtures::job("j", {t}), kPriorities);
  EXPECT_EQ(r.at("cpu").toString(), "700m");
  EXPECT_EQ(r.at("requests.memory").toString(), "240Mi");
  EXPECT_EQ(r.at("limits.cpu").toString(), "900m");
  EXPECT_EQ(r.count("limits.memory"), 0u);
}

// quotav1.Add adds pod by pod with resource.Quantity.Add, where a zero total takes the format of
// the next quantity: a higher-priority task's "0" memory does not turn 1Gi into bytes.
TEST(MinResources, AZeroTotalTakesTheFormatOfTheNextTasksQuantity) {
  Job j = fixtures::job("j", {taskWith("a", 1, std::nullopt, resources({{"memory", "1Gi"}})),
                              taskWith("b", 2, std::nullopt, resources({{"memory", "0"}}), "high")});
  const ResourceList r = calcPGMinResources(j, kPriorities);
  EXPECT_EQ(r.at("memory").toString(), "1Gi");
  EXPECT_EQ(r.at("requests.memory").toString(), "1Gi");
}

}  // namespace
}  // namespace jobhost
