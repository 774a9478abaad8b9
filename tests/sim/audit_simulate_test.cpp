// Audit of `jobhost simulate` against its contract: the script is strict (duplicate keys, target
// keys a command does not take, names the job does not have are errors naming file:line:column and
// the field, exit 4, nothing printed), every request line carries every contract key, the final
// line every status field of spec §0.5, and the README's worked examples print what it says.
#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <fstream>
#include <sstream>

#include "../controller/controller_fixture.h"
#include "host/cli/cli.h"
#include "host/cluster/sim/run_simulation.h"
#include "host/cluster/sim/simulation_script.h"

namespace jobhost::testing {
namespace {

std::string parseError(const std::string& yaml) {
  auto s = parseSimulationScript(yaml, "s.yaml");
  return s.ok() ? "(parsed)" : s.error();
}

TEST(AuditSimulateScript, DuplicateKeysAreErrors) {
  EXPECT_EQ(parseError("until: 1h\nuntil: 2h\n"), "s.yaml:2:1: until: duplicate key");
  EXPECT_EQ(parseError("defaults: {runFor: 1s, runFor: 2s}\n"), "s.yaml:1:24: defaults.runFor: duplicate key");
  // A pod named twice would otherwise chain both incarnation lists.
  EXPECT_EQ(parseError("pods:\n  a: [{runFor: 1s}]\n  a: [{runFor: 2s}]\n"), "s.yaml:3:3: pods.a: duplicate key");
  EXPECT_EQ(parseError("pods: {[a, b]: {runFor: 1s}}\n"), "s.yaml:1:8: pods: expected a name as the key");
}

TEST(AuditSimulateScript, AnEventIsExactlyOneAction) {
  EXPECT_EQ(parseError("events:\n  - {at: 1s, loseNode: 1, restoreNode: 1}\n"),
            "s.yaml:2:5: events[0]: needs exactly one of evict, command, loseNode, restoreNode, createPvc");
  EXPECT_EQ(parseError("events:\n  - {at: 1s}\n"),
            "s.yaml:2:5: events[0]: needs exactly one of evict, command, loseNode, restoreNode, createPvc");
  EXPECT_EQ(parseError("events:\n  - {at: 1s, restoreNode: -1}\n"),
            "s.yaml:2:27: events[0].restoreNode: expected an integer between 0 and 100000, got \"-1\"");
  auto s = parseSimulationScript("events:\n  - {at: 2s, restoreNode: 1}\n  - {at: 1s, loseNode: 1}\n", "s.yaml");
  ASSERT_TRUE(s.ok()) << s.error();
  EXPECT_EQ(s->events[0].kind, ScriptEvent::Kind::LoseNode);
  EXPECT_EQ(s->events[1].kind, ScriptEvent::Kind::RestoreNode);
  EXPECT_EQ(s->events[1].node, 1);
  EXPECT_EQ(s->events[1].where, "s.yaml:2:27");
}

TEST(AuditSimulateScript, MissingClaimsAreAListOfNamesAndCreatePvcAnEvent) {
  auto s = parseSimulationScript("missingPvcs: [data, logs]\nevents:\n  - {at: 30s, createPvc: logs}\n", "s.yaml");
  ASSERT_TRUE(s.ok()) << s.error();
  ASSERT_EQ(s->missingPvcs.size(), 2u);
  EXPECT_EQ(s->missingPvcs[0], std::make_pair(std::string("data"), std::string("s.yaml:1:15")));
  EXPECT_EQ(s->missingPvcs[1].first, "logs");
  EXPECT_EQ(s->events[0].kind, ScriptEvent::Kind::CreatePvc);
  EXPECT_EQ(s->events[0].claim, "logs");
  EXPECT_EQ(s->events[0].atMs, 30'000);
  EXPECT_EQ(s->events[0].where, "s.yaml:3:26");
  EXPECT_EQ(parseError("missingPvcs: data\n"), "s.yaml:1:14: missingPvcs: expected a list of claim names such as [shared-data]");
  EXPECT_EQ(parseError("missingPvcs: [data, data]\n"), "s.yaml:1:21: missingPvcs[1]: \"data\" is listed twice");
  EXPECT_EQ(parseError("missingPvcs: [\"\"]\n"), "s.yaml:1:15: missingPvcs[0]: must not be empty");
  EXPECT_EQ(parseError("missingPvcs: [[a]]\n"), "s.yaml:1:15: missingPvcs[0]: expected a scalar value");
  EXPECT_EQ(parseError("events:\n  - {at: 1s, createPvc: data, pod: p}\n"),
            "s.yaml:2:5: events[0]: task:, pod: and partition: belong to command events");
}

TEST(AuditSimulateScript, TargetKeysOnlyOnTheCommandsThatTakeThem) {
  EXPECT_EQ(parseError("events:\n  - {at: 1s, command: AbortJob, task: worker}\n"),
            "s.yaml:2:39: events[0].task: AbortJob takes no task:");
  EXPECT_EQ(parseError("events:\n  - {at: 1s, command: RestartTask, task: w, pod: p}\n"),
            "s.yaml:2:50: events[0].pod: RestartTask takes no pod:");
  EXPECT_EQ(parseError("events:\n  - {at: 1s, command: RestartPartition, task: w, partition: first}\n"),
            "s.yaml:2:61: events[0].partition: expected a partition number such as 0 or 1, got \"first\"");
  EXPECT_EQ(parseError("events:\n  - {at: 1s, command: RestartPartition, task: w}\n"),
            "s.yaml:2:5: events[0]: RestartPartition needs task: and partition:");
  // RestartPod may name its task as well.
  auto s = parseSimulationScript("events:\n  - {at: 1s, command: RestartPod, task: w, pod: pt-w-0}\n", "s.yaml");
  ASSERT_TRUE(s.ok()) << s.error();
  EXPECT_EQ(s->events[0].task, "w");
}

Job partitionedJob() {
  Job job = makeJob("pt", {{"master", 1}, {"worker", 4}});
  job.spec.tasks[1].partitionPolicy = PartitionPolicy{2, 2, std::nullopt, 1};
  return job;
}

std::string checkError(const std::string& yaml, const SimBackendConfig& cluster = {}, const Job& job = partitionedJob()) {
  auto s = parseSimulationScript(yaml, "s.yaml");
  if (!s.ok()) return "parse: " + s.error();
  Status st = validateSimulationScript(*s, job, cluster);
  return st ? "(valid)" : st.message();
}

TEST(AuditSimulateScript, NamesAreCheckedAgainstTheJob) {
  EXPECT_EQ(checkError("pods:\n  pt-worker-3: {runFor: 1s}\n  pt-worker-4: {runFor: 1s}\n"),
            "s.yaml:3:3: pods.pt-worker-4: the job default/pt has no pod \"pt-worker-4\" "
            "(its pods: pt-master-0, pt-worker-0 .. pt-worker-3)");
  EXPECT_EQ(checkError("events:\n  - {at: 1s, evict: pt-master-1}\n"),
            "s.yaml:2:21: events[0].evict: the job default/pt has no pod \"pt-master-1\" "
            "(its pods: pt-master-0, pt-worker-0 .. pt-worker-3)");
  // Command targets are the controller's to judge (spec §5.1: an unknown partition is a no-op, an
  // unknown task or pod a targeted kill of nothing), so a script may name them to see what happens.
  EXPECT_EQ(checkError("events:\n  - {at: 1s, command: RestartPod, pod: worker-0}\n"), "(valid)");
  EXPECT_EQ(checkError("events:\n  - {at: 1s, command: RestartTask, task: workers}\n"), "(valid)");
  EXPECT_EQ(checkError("events:\n  - {at: 1s, command: RestartPartition, task: worker, partition: 2}\n"), "(valid)");
  EXPECT_EQ(checkError("events:\n  - {at: 1s, loseNode: 4}\n"),
            "s.yaml:2:24: events[0].loseNode: the cluster has nodes 0 .. 3");
  EXPECT_EQ(checkError("events:\n  - {at: 1s, restoreNode: 7}\n"),
            "s.yaml:2:27: events[0].restoreNode: the cluster has nodes 0 .. 3");
  EXPECT_EQ(checkError("events:\n  - {at: 1s, restoreNode: 2}\n"), "(valid)");  // not lost: changes nothing
  // The script's own cluster counts, not the config's.
  EXPECT_EQ(checkError("cluster: {nodes: 6}\nevents:\n  - {at: 1s, loseNode: 5}\n"), "(valid)");
  EXPECT_EQ(checkError(R"(
pods:
  pt-master-0: {runFor: 1s}
  pt-worker-3: [{runFor: 1s}, {runFor: forever}]
events:
  - {at: 1s, evict: pt-worker-0}
  - {at: 2s, command: RestartPod, pod: pt-worker-1}
  - {at: 2s, command: RestartPod, task: worker, pod: pt-worker-1}
  - {at: 3s, command: RestartTask, task: master}
  - {at: 4s, command: RestartPartition, task: worker, partition: 1}
  - {at: 5s, command: AbortJob}
  - {at: 6s, loseNode: 3}
)"),
            "(valid)");
}

TEST(AuditSimulateScript, MissingClaimsAreClaimsTheJobNames) {
  EXPECT_EQ(checkError("missingPvcs: [data]\n"),
            "s.yaml:1:15: missingPvcs[0]: the job default/pt names no claim \"data\" by volumeClaimName (it names none)");
  Job job = partitionedJob();
  job.spec.volumes = {JobVolume{"/data", "data", std::nullopt}, JobVolume{"/scratch", "", std::string("{}")},
                      JobVolume{"/logs", "logs", std::nullopt}};
  EXPECT_EQ(checkError("missingPvcs: [logs, data]\nevents:\n  - {at: 1s, createPvc: data}\n", {}, job), "(valid)");
  EXPECT_EQ(checkError("missingPvcs: [logs, scratch]\n", {}, job),
            "s.yaml:1:21: missingPvcs[1]: the job default/pt names no claim \"scratch\" by volumeClaimName "
            "(its claims: data, logs)");
  // Only a missing claim can be created: every other one exists from the start.
  EXPECT_EQ(checkError("missingPvcs: [logs]\nevents:\n  - {at: 1s, createPvc: data}\n", {}, job),
            "s.yaml:3:25: events[0].createPvc: \"data\" is not in missingPvcs: every other claim the job names "
            "exists from the start");
}

struct CliRun {
  int rc;
  std::string out, err;
};

std::string writeTemp(const std::string& name, const std::string& text) {
  std::string path = ::testing::TempDir() + name;
  std::ofstream(path) << text;
  return path;
}

CliRun cli(std::vector<std::string> args) {
  std::ostringstream out, err;
  int rc = cli::runCli(args, {out, err});
  return {rc, out.str(), err.str()};
}

const char* kJob = R"(apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata:
  name: pt
spec:
  minAvailable: 3
  schedulerName: volcano
  tasks:
    - name: master
      replicas: 1
      policies: [{event: TaskCompleted, action: CompleteJob}]
      template:
        spec:
          restartPolicy: Never
          containers: [{name: m, image: x, resources: {requests: {cpu: "1", memory: 1Gi}}}]
    - name: worker
      replicas: 2
      template:
        spec:
          restartPolicy: Never
          containers: [{name: w, image: x, resources: {requests: {cpu: "1", memory: 1Gi}}}]
)";

TEST(AuditSimulateCli, AScriptNamingAPodTheJobDoesNotHaveIsAnInputError) {
  const std::string job = writeTemp("audit-job.yaml", kJob);
  const std::string script = writeTemp("audit-unknown-pod.yaml", "events:\n  - {at: 5s, evict: pt-worker-9}\n");
  CliRun r = cli({"simulate", job, "--script", script});
  EXPECT_EQ(r.rc, cli::kInputError);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, script + ":2:21: events[0].evict: the job default/pt has no pod \"pt-worker-9\" "
                             "(its pods: pt-master-0, pt-worker-0, pt-worker-1)\n");
}

/// kJob with the master's and the worker's restartPolicy replaced ("" drops the line: unset).
std::string jobWithRestartPolicies(const std::string& master, const std::string& worker) {
  std::string job = kJob;
  const std::string line = "          restartPolicy: Never\n";
  size_t first = job.find(line);
  job.replace(first, line.size(), master.empty() ? "" : "          restartPolicy: " + master + "\n");
  size_t second = job.find(line, first + 1);
  job.replace(second, line.size(), worker.empty() ? "" : "          restartPolicy: " + worker + "\n");
  return job;
}

struct Simulated {
  std::string script;  // its path, which the notes start with
  CliRun run;
};

/// `jobhost simulate` of kJob with those restartPolicies, under `scriptText` written to `name`.
Simulated simulateWithRestartPolicies(const std::string& master, const std::string& worker, const std::string& name,
                                      const std::string& scriptText) {
  const std::string job = writeTemp("audit-" + name + "-job.yaml", jobWithRestartPolicies(master, worker));
  const std::string script = writeTemp("audit-" + name + ".yaml", scriptText);
  return {script, cli({"simulate", job, "--script", script})};
}

const char* kRestartedInPlace =
    ", so on a cluster the kubelet would restart the container in place, the pod would stay Running and no "
    "policy on its exit would fire (volcano#1407); script in-place restarts with `restarts:`, or set "
    "restartPolicy: Never\n";

TEST(AuditSimulateCli, AScriptedFailureOfAnOnFailurePodIsSimulatedAndNoted) {
  auto [script, r] = simulateWithRestartPolicies(
      "Never", "OnFailure", "onfailure", "pods: {pt-worker-1: [{runFor: forever}, {runFor: 2s, exitCode: 137}]}\nuntil: 30s\n");
  ASSERT_EQ(r.rc, cli::kOk) << r.err;
  EXPECT_EQ(r.err, script + ":1:8: note: pods.pt-worker-1[1]: pt-worker-1 exits 137, which the sim reports as "
                            "PodFailed, as under restartPolicy Never; task \"worker\" has restartPolicy OnFailure" +
                       kRestartedInPlace);
}

TEST(AuditSimulateCli, TheSimStillEndsAnOnFailurePodOnItsScriptedExit) {
  auto [script, r] = simulateWithRestartPolicies("Never", "OnFailure", "onfailure-exit",
                                                 "pods: {pt-worker-1: [{runFor: 2s, exitCode: 137}]}\n");
  ASSERT_EQ(r.rc, cli::kOk) << r.err;
  EXPECT_EQ(r.err.rfind(script + ":1:8: note: pods.pt-worker-1[0]: pt-worker-1 exits 137,", 0), 0u) << r.err;
  EXPECT_NE(r.out.find("{\"t_ms\":3000,\"event\":\"PodFailed\",\"pod\":\"pt-worker-1\",\"exitCode\":137,"),
            std::string::npos)
      << r.out;
}

TEST(AuditSimulateCli, AnUnsetRestartPolicyIsAlwaysSoEveryScriptedExitIsNoted) {
  auto [script, r] = simulateWithRestartPolicies("", "OnFailure", "always", "defaults: {runFor: 5s}\n");
  ASSERT_EQ(r.rc, cli::kOk) << r.err;
  // The worker exits 0, which OnFailure does not restart: only the master is noted.
  EXPECT_EQ(r.err, script + ": note: defaults: pt-master-0 exits 0, which the sim reports as PodSucceeded, as under "
                            "restartPolicy Never; task \"master\" has restartPolicy Always (unset)" +
                       kRestartedInPlace);
  EXPECT_NE(r.out.find("\"phase\":\"Completed\""), std::string::npos) << r.out;
}

TEST(AuditSimulateCli, ExitsThatTheRestartPolicyKeepsGetNoNote) {
  auto [script, r] = simulateWithRestartPolicies(
      "Never", "OnFailure", "kept", "defaults: {runFor: 5s}\npods: {pt-master-0: [{runFor: 3s, exitCode: 2}]}\nuntil: 10s\n");
  ASSERT_EQ(r.rc, cli::kOk) << r.err;
  EXPECT_EQ(r.err, "");
}

std::vector<std::string> outputLines(const std::string& out) {
  std::vector<std::string> lines;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(AuditSimulateCli, EveryLineCarriesEveryContractKeyAndTheFinalEveryStatusField) {
  const std::string job = writeTemp("audit-job.yaml", kJob);
  // The job is not finished at `until` and its last status write was a sync: runningDuration is
  // unset (syncJob drops it) and must still be there, as null.
  const std::string script = writeTemp("audit-keys.yaml",
                                       "pods: {pt-worker-1: [{runFor: 2s, exitCode: 137}]}\n"
                                       "defaults: {runFor: forever}\n"
                                       "events: [{at: 4s, command: RestartPod, pod: pt-worker-0}]\nuntil: 9s\n");
  CliRun r = cli({"simulate", job, "--script", script});
  ASSERT_EQ(r.rc, cli::kOk) << r.err;
  auto lines = outputLines(r.out);
  ASSERT_GE(lines.size(), 2u);
  const char* strings[] = {"event", "pod", "action", "phase"};
  const char* numbers[] = {"t_ms",    "exitCode", "delay_ms",  "retryCount", "version",    "pending",
                           "running", "succeeded", "failed",   "terminating", "unknown"};
  bool sawExit137 = false, sawNoPod = false;
  for (size_t i = 0; i + 1 < lines.size(); ++i) {
    rapidjson::Document d;
    ASSERT_FALSE(d.Parse(lines[i].c_str()).HasParseError()) << lines[i];
    if (d.HasMember("podGroup")) continue;
    for (const char* k : strings) EXPECT_TRUE(d.HasMember(k) && d[k].IsString()) << k << " in " << lines[i];
    for (const char* k : numbers) EXPECT_TRUE(d.HasMember(k) && d[k].IsInt64()) << k << " in " << lines[i];
    if (d["exitCode"].GetInt64() == 137) sawExit137 = std::string(d["event"].GetString()) == "PodFailed";
    if (std::string(d["pod"].GetString()).empty()) sawNoPod = true;
  }
  EXPECT_TRUE(sawExit137);
  EXPECT_TRUE(sawNoPod);
  rapidjson::Document last;
  ASSERT_FALSE(last.Parse(lines.back().c_str()).HasParseError()) << lines.back();
  ASSERT_TRUE(last.HasMember("final"));
  const auto& st = last["final"];
  for (const char* k : {"state", "minAvailable", "taskStatusCount", "pending", "running", "succeeded", "failed",
                        "terminating", "unknown", "version", "retryCount", "runningDuration", "controlledResources",
                        "conditions"})
    EXPECT_TRUE(st.HasMember(k)) << k << " in " << lines.back();
  for (const char* k : {"phase", "reason", "message", "lastTransitionTime"})
    EXPECT_TRUE(st["state"].HasMember(k)) << k;
  EXPECT_TRUE(st["runningDuration"].IsNull());
  EXPECT_EQ(last["t_ms"].GetInt64(), 9000);
}

TEST(AuditSimulate, RunningDurationIsNullWhileUnsetAndADurationOnceSet) {
  Job job = makeJob("pt", {{"worker", 1}});
  auto runFinal = [&](const std::string& yaml) {
    auto script = parseSimulationScript(yaml, "s.yaml");
    EXPECT_TRUE(script.ok());
    NoPluginJobPlugins plugins;
    std::ostringstream out;
    EXPECT_TRUE(runSimulation(job, *script, plugins, ControllerConfig{}, out).isOk());
    auto lines = outputLines(out.str());
    return lines.empty() ? std::string() : lines.back();
  };
  EXPECT_NE(runFinal("defaults: {runFor: forever}\nuntil: 5s\n").find(R"("retryCount":0,"runningDuration":null,)"),
            std::string::npos);
  EXPECT_NE(runFinal("defaults: {runFor: 3s}\n").find(R"("retryCount":0,"runningDuration":"4s",)"), std::string::npos);
}

// The README's worked examples: each quoted line, its "..." elisions aside, is a line the
// binary prints now, in the quoted order ("<uid>" stands for the PodGroup's uid).
std::vector<std::string> pieces(const std::string& quoted) {
  std::vector<std::string> out;
  size_t at = 0;
  for (;;) {
    size_t cut = quoted.find("...", at);
    std::string part = quoted.substr(at, cut == std::string::npos ? std::string::npos : cut - at);
    for (size_t u; (u = part.find("<uid>")) != std::string::npos;) {
      out.push_back(part.substr(0, u));
      part = part.substr(u + 5);
    }
    out.push_back(part);
    if (cut == std::string::npos) return out;
    at = cut + 3;
  }
}

bool matches(const std::string& line, const std::vector<std::string>& parts) {
  size_t at = 0;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (parts[i].empty()) continue;
    size_t found = line.find(parts[i], at);
    if (found == std::string::npos || (i == 0 && found != 0)) return false;
    at = found + parts[i].size();
  }
  return parts.back().empty() || line.size() == at;
}

TEST(AuditSimulateCli, ReadmeWorkedExamplesMatchTheBinary) {
  std::ifstream in(std::string(JOBHOST_SOURCE_DIR) + "/README.md");
  std::stringstream readme;
  readme << in.rdbuf();
  const std::string text = readme.str();
  int examples = 0;
  for (size_t at = 0; (at = text.find("jobhost simulate examples/", at)) != std::string::npos; ++at) {
    std::istringstream cmd(text.substr(at, text.find('\n', at) - at));
    std::vector<std::string> argv;
    for (std::string w; cmd >> w;) argv.push_back(w);
    ASSERT_EQ(argv.size(), 5u) << text.substr(at, 80);
    for (size_t i : {size_t{2}, size_t{4}}) argv[i] = std::string(JOBHOST_SOURCE_DIR) + "/" + argv[i];
    CliRun r = cli({argv.begin() + 1, argv.end()});
    ASSERT_EQ(r.rc, cli::kOk) << argv[2] << ": " << r.err;
    ++examples;
    // The quoted output: the next ``` block after the command's own, if before the next command.
    const size_t next = text.find("jobhost simulate examples/", at + 1);
    size_t open = text.find("```\n{", at);
    if (open == std::string::npos || open > next) continue;
    const size_t close = text.find("```", open + 4);
    auto lines = outputLines(r.out);
    size_t from = 0;
    for (const auto& quoted : outputLines(text.substr(open + 4, close - open - 4))) {
      const auto parts = pieces(quoted);
      size_t i = from;
      while (i < lines.size() && !matches(lines[i], parts)) ++i;
      EXPECT_LT(i, lines.size()) << argv[2] << ": README line not printed (in order): " << quoted;
      if (i < lines.size()) from = i + 1;
    }
  }
  EXPECT_GE(examples, 3);
}

}  // namespace
}  // namespace jobhost::testing
