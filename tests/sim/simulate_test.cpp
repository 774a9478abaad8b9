// runSimulation end to end: the JSON lines and the final status for scripted timelines.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "../controller/controller_fixture.h"
#include "host/cluster/sim/run_simulation.h"

namespace jobhost::testing {
namespace {

std::vector<std::string> simulate(const Job& job, const std::string& yaml, int workers = 3) {
  auto script = parseSimulationScript(yaml, "script.yaml");
  EXPECT_TRUE(script.ok()) << (script.ok() ? "" : script.error());
  NoPluginJobPlugins plugins;
  ControllerConfig config;
  config.workers = workers;
  std::ostringstream out;
  EXPECT_TRUE(runSimulation(job, *script, plugins, config, out).isOk());
  std::vector<std::string> lines;
  std::istringstream in(out.str());
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

/// "t_ms event pod action phase retry version" of each request line (compact, for assertions).
std::vector<std::string> summary(const std::vector<std::string>& lines) {
  std::vector<std::string> out;
  auto get = [](const std::string& line, const std::string& key) {
    size_t at = line.find("\"" + key + "\":");
    if (at == std::string::npos) return std::string();
    at += key.size() + 3;
    size_t end = line[at] == '"' ? line.find('"', at + 1) + 1 : line.find_first_of(",}", at);
    std::string v = line.substr(at, end - at);
    if (!v.empty() && v[0] == '"') v = v.substr(1, v.size() - 2);
    return v;
  };
  for (const auto& l : lines) {
    if (l.rfind("{\"final\"", 0) == 0) continue;
    out.push_back(get(l, "t_ms") + " " + get(l, "event") + " " + get(l, "pod") + " " + get(l, "action") + " " +
                  get(l, "phase") + " r" + get(l, "retryCount") + " v" + get(l, "version"));
  }
  return out;
}

TEST(Simulate, JobRunsToCompletionWithTheDocumentedLineFormat) {
  Job job = makeJob("pt", {{"worker", 2}});
  auto lines = simulate(job, "defaults: {startAfter: 1s, runFor: 10s}\n");
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines[0],
            R"({"t_ms":0,"event":"OutOfSync","pod":"","exitCode":0,"action":"SyncJob","delay_ms":0,"phase":"Pending",)"
            R"("retryCount":0,"version":0,"pending":0,"running":0,"succeeded":0,"failed":0,"terminating":0,"unknown":0})");
  EXPECT_EQ(summary(lines), std::vector<std::string>({
                                "0 OutOfSync  SyncJob Pending r0 v0",
                                "0 OutOfSync  SyncJob Pending r0 v0",
                                "0   SyncJob Pending r0 v0",
                                "0 PodPending pt-worker-0 SyncJob Pending r0 v0",
                                "0 PodPending pt-worker-1 SyncJob Pending r0 v0",
                                "0 OutOfSync pt-worker-0 SyncJob Pending r0 v0",
                                "0 OutOfSync pt-worker-1 SyncJob Pending r0 v0",
                                "0   SyncJob Pending r0 v0",
                                // Both pods start at 1s: the batch holds both updates.
                                "1000 PodRunning pt-worker-0 SyncJob Running r0 v0",
                                "1000 PodRunning pt-worker-1 SyncJob Running r0 v0",
                                "1000 OutOfSync  SyncJob Running r0 v0",
                                "11000 OutOfSync pt-worker-0 SyncJob Completed r0 v0",
                                // Any request of a finished job is a Soft full kill: Version bumps.
                                "11000 TaskCompleted pt-worker-1 SyncJob Completed r0 v1",
                                "11000 OutOfSync  SyncJob Completed r0 v2",
                            }));
  EXPECT_EQ(lines.back(),
            R"({"final":{"state":{"phase":"Completed","reason":"","message":"","lastTransitionTime":"1970-01-01T00:00:11Z"},)"
            R"("minAvailable":2,"taskStatusCount":{},"pending":0,"running":0,"succeeded":0,"failed":0,"terminating":0,)"
            R"("unknown":0,"version":2,"retryCount":0,"runningDuration":"11s","controlledResources":{},"conditions":[)"
            R"({"status":"Pending","lastTransitionTime":"1970-01-01T00:00:00Z"},{"status":"Running","lastTransitionTime":)"
            R"("1970-01-01T00:00:01Z"},{"status":"Completed","lastTransitionTime":"1970-01-01T00:00:11Z"}]},"t_ms":11000})");
}

TEST(Simulate, ScriptedFailureRestartsTheTaskThenCompletes) {
  Job job = makeJob("pt", {{"master", 1}, {"worker", 2, {onExitCode(137, "RestartTask")}}});
  auto lines = simulate(job, R"(
pods:
  pt-worker-1:
    - {runFor: 5s, exitCode: 137}
    - {runFor: 10s, exitCode: 0}
)");
  EXPECT_EQ(summary(lines), std::vector<std::string>({
                                "0 OutOfSync  SyncJob Pending r0 v0",
                                "0 OutOfSync  SyncJob Pending r0 v0",
                                "0   SyncJob Pending r0 v0",
                                "0 PodPending pt-master-0 SyncJob Pending r0 v0",
                                "0 PodPending pt-worker-0 SyncJob Pending r0 v0",
                                "0 PodPending pt-worker-1 SyncJob Pending r0 v0",
                                "0 OutOfSync pt-master-0 SyncJob Pending r0 v0",
                                "0 OutOfSync pt-worker-0 SyncJob Pending r0 v0",
                                "0 OutOfSync pt-worker-1 SyncJob Pending r0 v0",
                                "0   SyncJob Pending r0 v0",
                                "1000 PodRunning pt-master-0 SyncJob Running r0 v0",
                                "1000 PodRunning pt-worker-0 SyncJob Running r0 v0",
                                "1000 PodRunning pt-worker-1 SyncJob Running r0 v0",
                                "1000 OutOfSync  SyncJob Running r0 v0",
                                // exit 137 matches the task's exitCode policy: the worker task is
                                // killed (PodGroup kept, Version unchanged) and recreated at once.
                                "6000 PodFailed pt-worker-1 RestartTask Restarting r1 v0",
                                "6000 OutOfSync pt-worker-0 SyncJob Pending r1 v0",
                                "6000 OutOfSync pt-worker-1 SyncJob Pending r1 v0",
                                "6000 OutOfSync  SyncJob Pending r1 v0",
                                "6000 PodPending pt-worker-0 SyncJob Pending r1 v0",
                                "6000 PodPending pt-worker-1 SyncJob Pending r1 v0",
                                "6000 OutOfSync pt-worker-0 SyncJob Pending r1 v0",
                                "6000 OutOfSync pt-worker-1 SyncJob Pending r1 v0",
                                "7000 PodRunning pt-worker-0 SyncJob Running r1 v0",
                                "7000 PodRunning pt-worker-1 SyncJob Running r1 v0",
                                "7000 OutOfSync  SyncJob Running r1 v0",
                                "11000 TaskCompleted pt-master-0 SyncJob Running r1 v0",
                                "17000 OutOfSync pt-worker-0 SyncJob Completed r1 v0",
                                "17000 TaskCompleted pt-worker-1 SyncJob Completed r1 v1",
                                "17000 OutOfSync  SyncJob Completed r1 v2",
                            }));
  EXPECT_NE(lines.back().find(R"("retryCount":1,"runningDuration":"17s")"), std::string::npos);
  EXPECT_NE(lines.back().find(R"("t_ms":17000})"), std::string::npos);
}

TEST(Simulate, UntilKeepsRunningAndCommandsApply) {
  Job job = makeJob("pt", {{"worker", 1}});
  auto lines = simulate(job, "defaults: {runFor: forever}\nevents:\n  - {at: 5s, command: AbortJob}\nuntil: 20s\n");
  auto s = summary(lines);
  ASSERT_GE(s.size(), 2u);
  EXPECT_NE(std::find(s.begin(), s.end(), "5000 CommandIssued  AbortJob Aborting r0 v1"), s.end());
  EXPECT_NE(lines.back().find(R"("phase":"Aborted")"), std::string::npos);
  EXPECT_NE(lines.back().find(R"("t_ms":20000})"), std::string::npos);
}

// Aborted is not a phase the run stops on, so it runs until nothing is left to happen: the deleted
// pods' scripted exits (at 101 s) are not something left to happen.
TEST(Simulate, ARunEndsWhenOnlyDeletedPodsHadScriptLeft) {
  Job job = makeJob("pt", {{"worker", 2}});
  job.spec.policies = {onEvent("PodFailed", "AbortJob")};
  auto lines = simulate(job, R"(
defaults: {startAfter: 1s, runFor: 100s}
pods:
  pt-worker-0: [{runFor: 2s, exitCode: 1}]
)");
  ASSERT_FALSE(lines.empty());
  EXPECT_NE(lines.back().find(R"("phase":"Aborted")"), std::string::npos) << lines.back();
  EXPECT_NE(lines.back().find(R"("t_ms":3000})"), std::string::npos) << lines.back();
}

// Nor is a transition of a pod that has exited: the Failed pod is kept (Aborted retains it) and
// would have become ready at 51 s and restarted at 41 s, but an exited pod does neither.
TEST(Simulate, ARunEndsWhenOnlyExitedPodsHadScriptLeft) {
  Job job = makeJob("pt", {{"worker", 1}});
  job.spec.policies = {onEvent("PodFailed", "AbortJob")};
  auto lines = simulate(job, R"(
defaults: {startAfter: 1s, readyAfter: 50s, runFor: 2s, exitCode: 1}
pods:
  pt-worker-0: [{restarts: [{at: 40s}]}]
)");
  ASSERT_FALSE(lines.empty());
  EXPECT_NE(lines.back().find(R"("phase":"Aborted")"), std::string::npos) << lines.back();
  EXPECT_NE(lines.back().find(R"("t_ms":3000})"), std::string::npos) << lines.back();
}

TEST(Simulate, SameOutputWithOneOrFourWorkers) {
  Job job = makeJob("pt", {{"ps", 1}, {"worker", 3, {onEvent("PodEvicted", "RestartPod")}}});
  const char* script = "pods:\n  pt-worker-2: [{runFor: 3s, exitCode: 1}]\nevents:\n  - {at: 4s, evict: pt-worker-0}\n";
  EXPECT_EQ(simulate(job, script, 1), simulate(job, script, 4));
}

}  // namespace
}  // namespace jobhost::testing
