// The sim backend on its own: gang binding at minMember and minTaskMember, requests defaulted from
// limits, enqueue by minResources, Unknown when a running gang loses members, pod lifecycle events.
#include <gtest/gtest.h>

#include "host/cluster/sim/sim_cluster.h"
#include "host/controller/virtual_clock.h"

namespace jobhost {
namespace {

struct Recorder : ClusterListener {
  std::vector<ClusterEvent> events;
  void onClusterEvents(std::span<ClusterEvent> batch) override { events.insert(events.end(), batch.begin(), batch.end()); }
  std::vector<std::string> pgPhases() const {
    std::vector<std::string> out;
    for (const auto& e : events)
      if (e.type == ClusterEvent::Type::PodGroupUpdated) out.push_back(e.podGroup->status.phase);
    return out;
  }
};

Pod pod(const std::string& name, int64_t cpuMilli) {
  Pod p;
  p.metadata.name = name;
  p.metadata.namespace_ = "ns";
  p.metadata.annotations["scheduling.k8s.io/group-name"] = "pg";
  p.metadata.annotations["volcano.sh/job-name"] = "job";
  Container c;
  c.name = "main";
  if (cpuMilli) c.resources.requests["cpu"] = Quantity::fromMilli(cpuMilli);
  p.spec.containers.push_back(c);
  return p;
}

PodGroup group(int32_t minMember, int64_t minCpuMilli) {
  PodGroup pg;
  pg.metadata.name = "pg";
  pg.metadata.namespace_ = "ns";
  pg.spec.minMember = minMember;
  if (minCpuMilli) pg.spec.minResources = ResourceList{{"cpu", Quantity::fromMilli(minCpuMilli)}};
  return pg;
}

void drain(SimCluster& sim) {
  while (sim.deliver() || sim.schedule()) {
  }
}

SimBackendConfig twoNodes() {
  SimBackendConfig c;
  c.nodes = 2;
  c.cpu = Quantity::fromMilli(2000);
  return c;
}

TEST(GangScheduler, BindsOnlyWhenMinMemberFit) {
  VirtualClock clock;
  SimCluster sim(clock, twoNodes());
  Recorder rec;
  sim.setListener(&rec);
  ASSERT_TRUE(sim.createPodGroup(group(3, 0)).ok());
  drain(sim);
  EXPECT_EQ(rec.pgPhases(), std::vector<std::string>({"Inqueue"}));
  for (const char* n : {"a", "b"}) ASSERT_TRUE(sim.createPod(pod(n, 1500), nullptr).ok());
  drain(sim);
  EXPECT_EQ(sim.nodeOf("ns", "a"), "");  // 2 of minMember 3: nothing bound
  ASSERT_TRUE(sim.createPod(pod("c", 500), nullptr).ok());
  drain(sim);
  EXPECT_EQ(sim.nodeOf("ns", "a"), "node-0");
  EXPECT_EQ(sim.nodeOf("ns", "b"), "node-1");
  EXPECT_EQ(sim.nodeOf("ns", "c"), "node-0");
  EXPECT_EQ(rec.pgPhases(), std::vector<std::string>({"Inqueue", "Running"}));
}

Pod taskPod(const std::string& name, const std::string& task, int64_t cpuMilli) {
  Pod p = pod(name, cpuMilli);
  p.metadata.annotations["volcano.sh/task-spec"] = task;
  return p;
}

PodGroupCondition lastCondition(SimCluster& sim) { return sim.getPodGroup("ns", "pg")->status.conditions.back(); }

TEST(GangScheduler, RequestsAreDefaultedFromLimits) {
  VirtualClock clock;
  SimCluster sim(clock, twoNodes());
  ASSERT_TRUE(sim.createPodGroup(group(1, 0)).ok());
  Pod big = pod("big", 0);  // limits only, as GPU jobs are usually written: requests = limits
  big.spec.containers[0].resources.limits["cpu"] = Quantity::fromMilli(3000);
  Pod small = pod("small", 0);
  small.spec.containers[0].resources.limits["cpu"] = Quantity::fromMilli(1500);
  ASSERT_TRUE(sim.createPod(big, nullptr).ok());
  ASSERT_TRUE(sim.createPod(small, nullptr).ok());
  drain(sim);
  EXPECT_EQ(sim.nodeOf("ns", "big"), "");  // 3 CPUs fit on no 2-CPU node
  EXPECT_EQ(sim.nodeOf("ns", "small"), "node-0");
}

TEST(GangScheduler, EachTaskNeedsItsMinTaskMemberWhenMinMemberCoversThem) {
  VirtualClock clock;
  SimCluster sim(clock, twoNodes());
  PodGroup pg = group(2, 0);
  pg.spec.minTaskMember = {{"a", 1}, {"b", 1}};
  ASSERT_TRUE(sim.createPodGroup(pg).ok());
  ASSERT_TRUE(sim.createPod(taskPod("a-0", "a", 1000), nullptr).ok());
  ASSERT_TRUE(sim.createPod(taskPod("a-1", "a", 1000), nullptr).ok());
  ASSERT_TRUE(sim.createPod(taskPod("b-0", "b", 5000), nullptr).ok());
  drain(sim);
  EXPECT_EQ(sim.nodeOf("ns", "a-0"), "");  // two pods fit, but task b has none: the gang waits
  EXPECT_EQ(sim.podGroupPhase("ns", "pg"), std::optional<std::string>("Inqueue"));
  EXPECT_EQ(lastCondition(sim), (PodGroupCondition{"Unschedulable", "True", "NotEnoughResources",
                                                   "2/3 tasks in gang unschedulable: task b needs 1 pods, only 0 fit",
                                                   0}));
  ASSERT_TRUE(sim.deletePod("ns", "b-0").ok());
  ASSERT_TRUE(sim.createPod(taskPod("b-0", "b", 1000), nullptr).ok());
  drain(sim);
  EXPECT_NE(sim.nodeOf("ns", "b-0"), "");
  EXPECT_NE(sim.nodeOf("ns", "a-0"), "");
  EXPECT_EQ(lastCondition(sim).type, "Scheduled");
}

TEST(GangScheduler, MinTaskMemberIsIgnoredWhenMinMemberIsBelowTheirSum) {
  VirtualClock clock;
  SimCluster sim(clock, twoNodes());
  PodGroup pg = group(2, 0);
  pg.spec.minTaskMember = {{"a", 2}, {"b", 1}};  // sum 3 > minMember 2: Volcano skips the task check
  ASSERT_TRUE(sim.createPodGroup(pg).ok());
  ASSERT_TRUE(sim.createPod(taskPod("a-0", "a", 1000), nullptr).ok());
  ASSERT_TRUE(sim.createPod(taskPod("a-1", "a", 1000), nullptr).ok());
  ASSERT_TRUE(sim.createPod(taskPod("b-0", "b", 5000), nullptr).ok());
  drain(sim);
  EXPECT_NE(sim.nodeOf("ns", "a-0"), "");
  EXPECT_NE(sim.nodeOf("ns", "a-1"), "");
  EXPECT_EQ(sim.nodeOf("ns", "b-0"), "");
  EXPECT_EQ(sim.podGroupPhase("ns", "pg"), std::optional<std::string>("Running"));
}

TEST(GangScheduler, EnqueuesOnlyWhenMinResourcesFit) {
  VirtualClock clock;
  SimCluster sim(clock, twoNodes());
  Recorder rec;
  sim.setListener(&rec);
  ASSERT_TRUE(sim.createPodGroup(group(1, 5000)).ok());
  drain(sim);
  EXPECT_EQ(sim.podGroupPhase("ns", "pg"), std::optional<std::string>("Pending"));
}

TEST(GangScheduler, RunningGangBelowMinMemberBecomesUnknown) {
  VirtualClock clock;
  SimCluster sim(clock, twoNodes());
  Recorder rec;
  sim.setListener(&rec);
  sim.setBehaviour([](const Pod&, int) {
    PodBehaviour b;
    b.runForMs = std::nullopt;
    return b;
  });
  ASSERT_TRUE(sim.createPodGroup(group(2, 0)).ok());
  drain(sim);
  ASSERT_TRUE(sim.createPod(pod("a", 2000), nullptr).ok());
  ASSERT_TRUE(sim.createPod(pod("b", 2000), nullptr).ok());
  drain(sim);
  clock.advanceTo(1000);
  drain(sim);
  ASSERT_EQ(sim.getPod("ns", "a")->status.phase, PodPhase::Running);
  sim.loseNode(1);
  drain(sim);
  EXPECT_FALSE(sim.getPod("ns", "b"));
  EXPECT_EQ(rec.pgPhases(), std::vector<std::string>({"Inqueue", "Running", "Unknown"}));
  // Volcano's gang plugin marks a gang with fewer valid pods than minMember Unschedulable (its
  // job-valid check); Unknown comes with it.
  EXPECT_EQ(lastCondition(sim), (PodGroupCondition{"Unschedulable", "True", "NotEnoughTasks",
                                                   "Not enough valid tasks for gang-scheduling, valid: 1, min: 2", 1000}));
}

TEST(GangScheduler, PodLifecycleEventsInOrder) {
  VirtualClock clock;
  SimCluster sim(clock, twoNodes());
  Recorder rec;
  sim.setListener(&rec);
  sim.setBehaviour([](const Pod&, int) {
    PodBehaviour b;
    b.startAfterMs = 1000;
    b.readyAfterMs = 500;
    b.runForMs = 3000;
    b.exitCode = 137;
    b.restartsAtMs = {1000};
    return b;
  });
  ASSERT_TRUE(sim.createPodGroup(group(1, 0)).ok());
  Pod twoContainers = pod("a", 0);
  twoContainers.spec.containers.push_back(Container{});
  twoContainers.spec.containers.back().name = "a-log";  // listed first: statuses are in name order
  ASSERT_TRUE(sim.createPod(twoContainers, nullptr).ok());
  drain(sim);
  while (auto due = clock.nextDue()) {
    clock.advanceTo(*due);
    drain(sim);
  }
  std::vector<std::string> seen;
  for (const auto& e : rec.events) {
    if (e.type == ClusterEvent::Type::PodGroupUpdated) continue;
    const auto& s = e.pod.status;
    std::string line = std::to_string(static_cast<int>(e.type)) + ":" + toString(s.phase);
    if (!s.containerStatuses.empty())
      line += ":r" + std::to_string(s.containerStatuses[0].restartCount) + (s.containerStatuses[0].ready ? ":ready" : "");
    seen.push_back(line);
  }
  EXPECT_EQ(seen, std::vector<std::string>({"0:Pending:r0", "1:Pending:r0", "1:Running:r0", "1:Running:r0:ready",
                                            "1:Running:r1", "1:Running:r1:ready", "1:Failed:r1"}));
  const ClusterEvent* last = nullptr;
  for (const auto& e : rec.events)
    if (e.type == ClusterEvent::Type::PodUpdated) last = &e;
  ASSERT_TRUE(last);
  const auto& statuses = last->pod.status.containerStatuses;
  ASSERT_EQ(statuses.size(), 2u);
  EXPECT_EQ(statuses[0].name, "a-log");  // the kubelet's order: the script's exitCode is status 0's
  ASSERT_TRUE(statuses[0].terminated);
  EXPECT_EQ(statuses[0].terminated->exitCode, 137);
  EXPECT_EQ(statuses[1].name, "main");
  ASSERT_TRUE(statuses[1].terminated);
  EXPECT_EQ(statuses[1].terminated->exitCode, 0);
  EXPECT_EQ(rec.pgPhases(), std::vector<std::string>({"Inqueue", "Running", "Pending", "Inqueue"}));
  // Its only pod failed: no member runs, so Pending (not Unknown), reported as Volcano's gang does.
  EXPECT_EQ(lastCondition(sim), (PodGroupCondition{"Unschedulable", "True", "NotEnoughTasks",
                                                   "Not enough valid tasks for gang-scheduling, valid: 0, min: 1", 4000}));
  EXPECT_EQ(clock.now(), 4000);
}

TEST(GangScheduler, GarbageCollectsWhatAJobOwned) {
  VirtualClock clock;
  SimCluster sim(clock, twoNodes());
  Pod p = pod("a", 0);
  p.metadata.ownerReferences.push_back(OwnerReference{"batch.volcano.sh/v1alpha1", "Job", "job", "u1", true, true});
  ASSERT_TRUE(sim.createPod(p, nullptr).ok());
  ConfigMap cm;
  cm.metadata.name = "job-svc";
  cm.metadata.ownerReferences = p.metadata.ownerReferences;
  ASSERT_TRUE(sim.applyObjects("ns", Components{{cm}, {}, {}, {}}).ok());
  EXPECT_TRUE(sim.objectExists("ns", ObjectKind::ConfigMap, "job-svc"));
  sim.deleteOwnedBy("ns", "u1");
  EXPECT_EQ(sim.podCount(), 0u);
  EXPECT_FALSE(sim.objectExists("ns", ObjectKind::ConfigMap, "job-svc"));
  EXPECT_EQ(sim.deletePod("ns", "a").code, ClusterErrc::NotFound);
}

}  // namespace
}  // namespace jobhost
