// scheduleTimeoutSeconds in the sim: Unschedulable/NotEnoughResources while a gang waits,
// Unschedulable/ScheduleTimeout at its deadline on the virtual clock (Unknown when some of it
// runs), and the job's PodPending-with-timeout and Unknown policies through runSimulation.
#include <gtest/gtest.h>

#include <sstream>

#include "../controller/controller_fixture.h"
#include "host/cluster/podgroup_conditions.h"
#include "host/cluster/sim/run_simulation.h"

namespace jobhost::testing {
namespace {

struct Recorder : ClusterListener {
  std::vector<std::string> pgPhases;
  void onClusterEvents(std::span<ClusterEvent> batch) override {
    for (const auto& e : batch)
      if (e.type == ClusterEvent::Type::PodGroupUpdated) pgPhases.push_back(e.podGroup->status.phase);
  }
};

Pod pod(const std::string& name, int64_t cpuMilli) {
  Pod p;
  p.metadata.name = name;
  p.metadata.namespace_ = "ns";
  p.metadata.annotations["scheduling.k8s.io/group-name"] = "pg";
  Container c;
  c.name = "main";
  c.resources.requests["cpu"] = Quantity::fromMilli(cpuMilli);
  p.spec.containers.push_back(c);
  return p;
}

PodGroup group(int32_t minMember, int32_t timeoutSeconds) {
  PodGroup pg;
  pg.metadata.name = "pg";
  pg.metadata.namespace_ = "ns";
  pg.spec.minMember = minMember;
  pg.spec.scheduleTimeoutSeconds = timeoutSeconds;
  return pg;
}

SimBackendConfig nodes(int count, int64_t cpuMilli) {
  SimBackendConfig c;
  c.nodes = count;
  c.cpu = Quantity::fromMilli(cpuMilli);
  return c;
}

void drain(SimCluster& sim) {
  while (sim.deliver() || sim.schedule()) {
  }
}

PodGroupCondition lastCondition(SimCluster& sim) { return sim.getPodGroup("ns", "pg")->status.conditions.back(); }

TEST(GangTimeout, UnplacedGangIsReportedAtItsDeadline) {
  VirtualClock clock;
  SimCluster sim(clock, nodes(2, 2000));
  Recorder rec;
  sim.setListener(&rec);
  std::vector<std::string> reports;
  sim.setUnschedulableObserver([&](const PodGroup& pg) {
    reports.push_back(std::to_string(clock.now()) + " " + pg.status.phase + " " + pg.status.conditions.back().reason);
  });
  ASSERT_TRUE(sim.createPodGroup(group(3, 30)).ok());
  for (const char* n : {"a", "b", "c"}) ASSERT_TRUE(sim.createPod(pod(n, 1500), nullptr).ok());
  drain(sim);
  EXPECT_EQ(lastCondition(sim), (PodGroupCondition{"Unschedulable", "True", "NotEnoughResources",
                                                   "3/3 tasks in gang unschedulable: only 2 of the waiting pods fit", 0}));
  EXPECT_EQ(clock.nextDue(), std::optional<TimeMs>(30000));
  clock.advanceTo(30000);
  drain(sim);
  EXPECT_EQ(lastCondition(sim), (PodGroupCondition{"Unschedulable", "True", "ScheduleTimeout",
                                                   "gang of 3 not placed within scheduleTimeoutSeconds 30 (0 started)",
                                                   30000}));
  EXPECT_EQ(sim.podGroupPhase("ns", "pg"), std::optional<std::string>("Inqueue"));  // none of it runs
  EXPECT_EQ(sim.nodeOf("ns", "a"), "");
  EXPECT_EQ(reports, std::vector<std::string>({"0 Inqueue NotEnoughResources", "30000 Inqueue ScheduleTimeout"}));
  // Still placed when capacity frees up: the ScheduleTimeout report gives way to Scheduled.
  ASSERT_TRUE(sim.deletePod("ns", "c").ok());
  ASSERT_TRUE(sim.createPod(pod("c", 500), nullptr).ok());
  drain(sim);
  EXPECT_EQ(sim.nodeOf("ns", "c"), "node-0");
  EXPECT_EQ(lastCondition(sim).type, "Scheduled");
  EXPECT_EQ(rec.pgPhases, std::vector<std::string>({"Inqueue", "Running"}));
}

TEST(GangTimeout, GangBelowMinMemberPastItsDeadlineIsUnknownAndReported) {
  VirtualClock clock;
  SimCluster sim(clock, nodes(2, 2000));
  Recorder rec;
  sim.setListener(&rec);
  sim.setBehaviour([](const Pod&, int) { return runsForever(); });
  ASSERT_TRUE(sim.createPodGroup(group(2, 10)).ok());
  ASSERT_TRUE(sim.createPod(pod("a", 2000), nullptr).ok());
  ASSERT_TRUE(sim.createPod(pod("b", 2000), nullptr).ok());
  drain(sim);
  clock.advanceTo(10000);
  drain(sim);
  EXPECT_EQ(lastCondition(sim).type, "Scheduled");  // placed before the deadline: no report
  sim.loseNode(1);
  drain(sim);
  EXPECT_EQ(lastCondition(sim), (PodGroupCondition{"Unschedulable", "True", "ScheduleTimeout",
                                                   "gang of 2 not placed within scheduleTimeoutSeconds 10 (1 started)",
                                                   10000}));
  EXPECT_EQ(rec.pgPhases, std::vector<std::string>({"Inqueue", "Running", "Unknown"}));
}

// Volcano's recordPodGroupEvent keeps the first True condition unless a later one is strictly newer
// (time.After), and reports none when that one is Scheduled.
TEST(GangTimeout, ThePendingConditionIsTheFirstOfTheNewestTrueOnes) {
  PodGroup pg;
  pg.status.conditions = {{"Unschedulable", "True", "NotEnoughResources", "a", 5000},
                          {"Unschedulable", "True", "ScheduleTimeout", "b", 5000},
                          {"Unschedulable", "False", "NotEnoughTasks", "c", 9000}};
  ASSERT_NE(pendingCondition(pg), nullptr);
  EXPECT_EQ(pendingCondition(pg)->reason, "NotEnoughResources");
  pg.status.conditions.push_back({"Scheduled", "True", "tasks in gang are ready to be scheduled", "", 6000});
  EXPECT_EQ(pendingCondition(pg), nullptr);
}

/// NoPluginJobPlugins plus the coscheduling plugin's scheduleTimeoutSeconds on the PodGroup.
struct CoschedulingPlugins : NoPluginJobPlugins {
  Expected<PodGroup> makePodGroup(const Job& job) override {
    auto pg = NoPluginJobPlugins::makePodGroup(job);
    if (pg) pg->spec.scheduleTimeoutSeconds = 30;
    return pg;
  }
};

/// The simulate lines that are not plain SyncJob requests, with the PodGroup name shortened.
std::vector<std::string> simulate(Job job, const std::string& yaml) {
  for (auto& t : job.spec.tasks) t.template_.spec.containers[0].resources.requests["cpu"] = Quantity::fromMilli(2500);
  auto script = parseSimulationScript(yaml, "script.yaml");
  EXPECT_TRUE(script.ok()) << (script.ok() ? "" : script.error());
  CoschedulingPlugins plugins;
  std::ostringstream out;
  EXPECT_TRUE(runSimulation(job, *script, plugins, ControllerConfig{}, out).isOk());
  std::vector<std::string> lines;
  std::istringstream in(out.str());
  for (std::string line; std::getline(in, line);) {
    if (line.find("\"action\":\"SyncJob\"") != std::string::npos) continue;
    if (size_t at = line.find("\"podGroup\":\"gang-"); at != std::string::npos)
      line.replace(at + 12, line.find('"', at + 12) - at - 12, "gang-<uid>");
    lines.push_back(line);
  }
  return lines;
}

TEST(GangTimeout, PodPendingPolicyAbortsTheJobThatCannotBePlaced) {
  Job job = makeJob("gang", {{"worker", 3}});
  job.spec.policies = {onEvent("PodPending", "AbortJob", 60000)};
  auto lines = simulate(job, "cluster: {nodes: 2, cpu: 4, memory: 8Gi}\ndefaults: {runFor: forever}\n");
  ASSERT_EQ(lines.size(), 7u);
  EXPECT_EQ(lines[0],
            R"({"t_ms":0,"event":"PodPending","pod":"gang-worker-0","exitCode":0,"action":"AbortJob","delay_ms":60000,)"
            R"("phase":"Pending","retryCount":0,"version":0,"pending":3,"running":0,"succeeded":0,"failed":0,)"
            R"("terminating":0,"unknown":0,"task":"worker"})");
  EXPECT_EQ(lines[3], R"({"t_ms":0,"podGroup":"gang-<uid>","phase":"Inqueue","condition":"Unschedulable",)"
                      R"("reason":"NotEnoughResources","message":"3/3 tasks in gang unschedulable: only 2 of the )"
                      R"(waiting pods fit"})");
  EXPECT_EQ(lines[4], R"({"t_ms":30000,"podGroup":"gang-<uid>","phase":"Inqueue","condition":"Unschedulable",)"
                      R"("reason":"ScheduleTimeout","message":"gang of 3 not placed within scheduleTimeoutSeconds 30 )"
                      R"j((0 started)"})j");
  EXPECT_EQ(lines[5],
            R"({"t_ms":60000,"event":"PodPending","pod":"gang-worker-0","exitCode":0,"action":"AbortJob","delay_ms":0,)"
            R"("phase":"Aborting","retryCount":0,"version":1,"pending":0,"running":0,"succeeded":0,"failed":0,)"
            R"("terminating":3,"unknown":0,"task":"worker","fired":true})");
  EXPECT_NE(lines[6].find(R"({"final":{"state":{"phase":"Aborted","reason":"","message":"","lastTransitionTime":)"
                          R"("1970-01-01T00:01:00Z"})"),
            std::string::npos);
  EXPECT_NE(lines[6].find(R"("t_ms":60000})"), std::string::npos);
}

/// Two 2.5-CPU workers on two 4-CPU nodes with `Unknown -> RestartJob`; node 1 is lost at 40 s,
/// then `laterEvents` (script event lines) happen, until `until`.
std::vector<std::string> brokenGang(const std::string& laterEvents, const std::string& until) {
  Job job = makeJob("gang", {{"worker", 2}});
  job.spec.policies = {onEvent("Unknown", "RestartJob")};
  return simulate(job, "cluster: {nodes: 2, cpu: 4, memory: 8Gi}\ndefaults: {runFor: forever}\n"
                       "events:\n  - {at: 40s, loseNode: 1}\n" + laterEvents + "until: " + until + "\n");
}

TEST(GangTimeout, UnknownPolicyRestartsTheJobWhenItsGangBreaks) {
  auto lines = brokenGang("", "50s");
  ASSERT_EQ(lines.size(), 4u);
  // Node 1 goes at 40 s, past the gang's 30 s deadline: Unknown with one of two pods running.
  EXPECT_EQ(lines[0], R"({"t_ms":40000,"podGroup":"gang-<uid>","phase":"Unknown","condition":"Unschedulable",)"
                      R"("reason":"ScheduleTimeout","message":"gang of 2 not placed within scheduleTimeoutSeconds 30 )"
                      R"j((1 started)"})j");
  EXPECT_EQ(lines[1],
            R"({"t_ms":40000,"event":"Unknown","pod":"","exitCode":0,"action":"RestartJob","delay_ms":0,)"
            R"("phase":"Restarting","retryCount":1,"version":1,"pending":0,"running":0,"succeeded":0,"failed":0,)"
            R"("terminating":2,"unknown":0})");
  // The restart's new PodGroup needs 5 CPUs; one 4-CPU node is left.
  EXPECT_EQ(lines[2], R"({"t_ms":40000,"podGroup":"gang-<uid>","phase":"Pending","condition":"Unschedulable",)"
                      R"("reason":"NotEnoughResources","message":"minResources (cpu 5, memory 0, gpu 0) exceed the )"
                      R"j(cluster's capacity (cpu 4, memory 8Gi, gpu 0)"})j");
  EXPECT_NE(lines[3].find(R"("phase":"Restarting")"), std::string::npos);
  EXPECT_NE(lines[3].find(R"("t_ms":50000})"), std::string::npos);
}

// The node comes back (an untainted node): the restarted gang's minResources fit again, so its pods
// are created at 60 s, bound, and running at 61 s; no further report.
TEST(GangTimeout, ARestoredNodeLetsTheRestartedGangRun) {
  auto lines = brokenGang("  - {at: 60s, restoreNode: 1}\n", "70s");
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_NE(lines[2].find(R"("reason":"NotEnoughResources")"), std::string::npos) << lines[2];
  EXPECT_EQ(lines[3].rfind(R"({"final":{"state":{"phase":"Running","reason":"","message":"",)"
                           R"("lastTransitionTime":"1970-01-01T00:01:01Z"},)", 0),
            0u)
      << lines[3];
  EXPECT_NE(lines[3].find(R"("running":2,"succeeded":0,"failed":0,"terminating":0,"unknown":0,"version":1,"retryCount":1,)"),
            std::string::npos)
      << lines[3];
  EXPECT_NE(lines[3].find(R"({"status":"Pending","lastTransitionTime":"1970-01-01T00:01:00Z"})"), std::string::npos);
}

}  // namespace
}  // namespace jobhost::testing
