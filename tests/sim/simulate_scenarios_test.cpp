// End-to-end `jobhost simulate` scenarios: a Volcano job YAML (defaulted by the CREATE mutation,
// as the CLI does) and a simulate script in, the exact JSON lines out. Each expected line was
// checked by hand against spec/volcano-job-controller.md; the comments say why each line is what
// Volcano does. Lines are written compactly and expanded to the exact output JSON:
//   "t_ms event pod exitCode action delay_ms phase retryCount version pending running succeeded
//    failed terminating unknown [task=<task>] [fired]"   ("-" is the empty string)
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "host/admission/mutation.h"
#include "host/cluster/sim/run_simulation.h"
#include "host/controller/no_plugin_job_plugins.h"
#include "host/spec/job_loader.h"
#include "host/spec/uid.h"

namespace jobhost::testing {
namespace {

std::vector<std::string> simulate(const std::string& jobYaml, const std::string& scriptYaml, int workers = 3) {
  auto docs = parseJobs(jobYaml, "job.yaml");
  EXPECT_TRUE(docs.ok()) << (docs.ok() ? "" : docs.error());
  if (!docs.ok()) return {};
  Job job = (*docs)[0].job;
  mutateJob(job, MutationConfig{});
  job.metadata.uid = stableUid(job.metadata.namespace_, job.metadata.name);
  auto script = parseSimulationScript(scriptYaml, "script.yaml");
  EXPECT_TRUE(script.ok()) << (script.ok() ? "" : script.error());
  if (!script.ok()) return {};
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

/// The exact output line for a compact description (see the file comment).
std::string line(const std::string& compact) {
  std::istringstream in(compact);
  std::vector<std::string> t;
  for (std::string tok; in >> tok;) t.push_back(tok == "-" ? "" : tok);
  if (t.size() < 15) return "bad expectation: " + compact;
  auto str = [](const std::string& s) { return "\"" + s + "\""; };
  std::string j = "{\"t_ms\":" + t[0] + ",\"event\":" + str(t[1]) + ",\"pod\":" + str(t[2]) + ",\"exitCode\":" + t[3] +
                  ",\"action\":" + str(t[4]) + ",\"delay_ms\":" + t[5] + ",\"phase\":" + str(t[6]) +
                  ",\"retryCount\":" + t[7] + ",\"version\":" + t[8] + ",\"pending\":" + t[9] + ",\"running\":" + t[10] +
                  ",\"succeeded\":" + t[11] + ",\"failed\":" + t[12] + ",\"terminating\":" + t[13] +
                  ",\"unknown\":" + t[14];
  for (size_t i = 15; i < t.size(); ++i) {
    if (t[i].rfind("task=", 0) == 0) j += ",\"task\":" + str(t[i].substr(5));
    if (t[i] == "fired") j += ",\"fired\":true";
  }
  return j + "}";
}

std::vector<std::string> lines(const std::vector<std::string>& compact) {
  std::vector<std::string> out;
  for (const auto& c : compact) out.push_back(line(c));
  return out;
}

/// line(compact) for a request whose handling failed with `error`, and what became of it
/// ("requeued" or "retryLimitReached").
std::string failedLine(const std::string& compact, const std::string& error, const std::string& outcome) {
  std::string j = line(compact);
  j.pop_back();
  return j + ",\"error\":\"" + error + "\",\"" + outcome + "\":true}";
}

/// The request lines (without the final status line).
std::vector<std::string> requestLines(std::vector<std::string> all) {
  if (!all.empty() && all.back().rfind("{\"final\"", 0) == 0) all.pop_back();
  return all;
}

// The first lines of every scenario: the job's add (OutOfSync) and the echo of its Pending status
// write sync while the PodGroup has no phase (no pods; `fn` changes nothing); the scheduler
// enqueues the PodGroup (event "": counting sync creates the pods, counted Pending); each pod's
// add is PodPending (no policy without a timeout -> SyncJob); binding is a Pending->Pending update
// (OutOfSync); the PodGroup going Running is event "" again.

// 1. maxRetry exhaustion -> Failed, with the last-retry Soft retain.
TEST(SimulateScenario, MaxRetryExhaustionFailsTheJobAndTheLastRetryRetainsFinishedPods) {
  auto out = simulate(R"(
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: mr, namespace: default}
spec:
  maxRetry: 2
  policies:
    - {event: PodFailed, action: RestartJob}
  tasks:
    - name: ps
      replicas: 1
      template: {spec: {restartPolicy: Never, containers: [{name: ps, image: busybox}]}}
    - name: worker
      replicas: 2
      template: {spec: {restartPolicy: Never, containers: [{name: worker, image: busybox}]}}
)",
                      R"(
defaults: {startAfter: 1s, runFor: forever}
pods:
  mr-worker-0: [{runFor: 2s}, {runFor: 2s}]
  mr-worker-1: [{runFor: 4s, exitCode: 1}, {runFor: 4s, exitCode: 1}]
)");
  EXPECT_EQ(requestLines(out), lines({
      "0 OutOfSync - 0 SyncJob 0 Pending 0 0 0 0 0 0 0 0",
      "0 OutOfSync - 0 SyncJob 0 Pending 0 0 0 0 0 0 0 0",
      "0 - - 0 SyncJob 0 Pending 0 0 3 0 0 0 0 0",
      "0 PodPending mr-ps-0 0 SyncJob 0 Pending 0 0 3 0 0 0 0 0 task=ps",
      "0 PodPending mr-worker-0 0 SyncJob 0 Pending 0 0 3 0 0 0 0 0 task=worker",
      "0 PodPending mr-worker-1 0 SyncJob 0 Pending 0 0 3 0 0 0 0 0 task=worker",
      "0 OutOfSync mr-ps-0 0 SyncJob 0 Pending 0 0 3 0 0 0 0 0 task=ps",
      "0 OutOfSync mr-worker-0 0 SyncJob 0 Pending 0 0 3 0 0 0 0 0 task=worker",
      "0 OutOfSync mr-worker-1 0 SyncJob 0 Pending 0 0 3 0 0 0 0 0 task=worker",
      "0 - - 0 SyncJob 0 Pending 0 0 3 0 0 0 0 0",
      // All three start: Running 3 >= minAvailable 3 -> Running; then the Running echo.
      "1000 PodRunning mr-ps-0 0 SyncJob 0 Running 0 0 0 3 0 0 0 0 task=ps",
      "1000 PodRunning mr-worker-0 0 SyncJob 0 Running 0 0 0 3 0 0 0 0 task=worker",
      "1000 PodRunning mr-worker-1 0 SyncJob 0 Running 0 0 0 3 0 0 0 0 task=worker",
      "1000 OutOfSync - 0 SyncJob 0 Running 0 0 0 3 0 0 0 0",
      // worker-0 Succeeded, 1 of 2 replicas: not TaskCompleted, plain OutOfSync; counters change.
      "3000 OutOfSync mr-worker-0 0 SyncJob 0 Running 0 0 0 2 1 0 0 0 task=worker",
      // worker-1 exits 1: PodFailed -> RestartJob. RetryCount 0 < maxRetry-1: retain None, all
      // three pods killed (Succeeded too), Version 1, counters only the killed pods (terminating).
      "5000 PodFailed mr-worker-1 1 RestartJob 0 Restarting 1 1 0 0 0 0 3 0 task=worker",
      // The kills' out-of-sync updates and deletions (one request per pod): Restarting syncs with
      // the recreated PodGroup not scheduled yet: 3 - terminating 3 < minAvailable 3, unchanged.
      "5000 OutOfSync mr-ps-0 0 SyncJob 0 Restarting 1 1 0 0 0 0 3 0 task=ps",
      "5000 OutOfSync mr-worker-0 0 SyncJob 0 Restarting 1 1 0 0 0 0 3 0 task=worker",
      "5000 OutOfSync mr-worker-1 0 SyncJob 0 Restarting 1 1 0 0 0 0 3 0 task=worker",
      "5000 OutOfSync - 0 SyncJob 0 Restarting 1 1 0 0 0 0 3 0",
      // PodGroup enqueued: counting sync creates 3 pods, 3 - 0 >= 3 -> Pending.
      "5000 - - 0 SyncJob 0 Pending 1 1 3 0 0 0 0 0",
      "5000 PodPending mr-ps-0 0 SyncJob 0 Pending 1 1 3 0 0 0 0 0 task=ps",
      "5000 PodPending mr-worker-0 0 SyncJob 0 Pending 1 1 3 0 0 0 0 0 task=worker",
      "5000 PodPending mr-worker-1 0 SyncJob 0 Pending 1 1 3 0 0 0 0 0 task=worker",
      "5000 OutOfSync - 0 SyncJob 0 Pending 1 1 3 0 0 0 0 0",
      "5000 OutOfSync mr-ps-0 0 SyncJob 0 Pending 1 1 3 0 0 0 0 0 task=ps",
      "5000 OutOfSync mr-worker-0 0 SyncJob 0 Pending 1 1 3 0 0 0 0 0 task=worker",
      "5000 OutOfSync mr-worker-1 0 SyncJob 0 Pending 1 1 3 0 0 0 0 0 task=worker",
      "5000 - - 0 SyncJob 0 Pending 1 1 3 0 0 0 0 0",
      "6000 PodRunning mr-ps-0 0 SyncJob 0 Running 1 1 0 3 0 0 0 0 task=ps",
      "6000 PodRunning mr-worker-0 0 SyncJob 0 Running 1 1 0 3 0 0 0 0 task=worker",
      "6000 PodRunning mr-worker-1 0 SyncJob 0 Running 1 1 0 3 0 0 0 0 task=worker",
      "6000 OutOfSync - 0 SyncJob 0 Running 1 1 0 3 0 0 0 0",
      "8000 OutOfSync mr-worker-0 0 SyncJob 0 Running 1 1 0 2 1 0 0 0 task=worker",
      // Second failure (pods of Version 1, not stale): RetryCount 1 >= maxRetry-1 is the last
      // retry, so the retain set is Soft whatever RestartJob asked: only ps-0 (Running) is
      // killed; worker-0 (Succeeded) and worker-1 (Failed) stay. Version 2, RetryCount 2.
      "10000 PodFailed mr-worker-1 1 RestartJob 0 Restarting 2 2 0 0 0 0 1 0 task=worker",
      // Restarting sync: RetryCount 2 >= maxRetry 2 -> Failed (status counters of the kill kept).
      "10000 OutOfSync mr-ps-0 0 SyncJob 0 Failed 2 2 0 0 0 0 1 0 task=ps",
      // Failed: every request is KillJob(Soft, nil): Version bumps, nothing left to kill.
      "10000 OutOfSync - 0 SyncJob 0 Failed 2 3 0 0 0 0 0 0",
  }));
  EXPECT_EQ(out.back(),
            R"({"final":{"state":{"phase":"Failed","reason":"","message":"","lastTransitionTime":"1970-01-01T00:00:10Z"},)"
            R"("minAvailable":3,"taskStatusCount":{},"pending":0,"running":0,"succeeded":0,"failed":0,"terminating":0,)"
            R"("unknown":0,"version":3,"retryCount":2,"runningDuration":"10s","controlledResources":{},"conditions":[)"
            R"({"status":"Pending","lastTransitionTime":"1970-01-01T00:00:05Z"},{"status":"Running","lastTransitionTime":)"
            R"("1970-01-01T00:00:08Z"},{"status":"Restarting","lastTransitionTime":"1970-01-01T00:00:10Z"},)"
            R"({"status":"Failed","lastTransitionTime":"1970-01-01T00:00:10Z"}]},"t_ms":10000})");
}

// 2. A PodPending timeout policy: RestartTask after 5 s for a pod that does not start in time;
// the recreated pod's PodRunning cancels its own PodPending action (same pod UID).
TEST(SimulateScenario, PodPendingTimeoutRestartsTheTaskAndPodRunningCancelsTheNextTimeout) {
  auto out = simulate(R"(
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: pp, namespace: default}
spec:
  tasks:
    - name: worker
      replicas: 1
      policies:
        - {event: PodPending, action: RestartTask, timeout: 5s}
      template: {spec: {restartPolicy: Never, containers: [{name: worker, image: busybox}]}}
)",
                      R"(
defaults: {startAfter: 1s, runFor: 10s}
pods:
  pp-worker-0: [{startAfter: 8s}]
)");
  EXPECT_EQ(requestLines(out), lines({
      "0 OutOfSync - 0 SyncJob 0 Pending 0 0 0 0 0 0 0 0",
      "0 OutOfSync - 0 SyncJob 0 Pending 0 0 0 0 0 0 0 0",
      "0 - - 0 SyncJob 0 Pending 0 0 1 0 0 0 0 0",
      // PodPending matches the task policy, which has a timeout: delayed 5000, nothing runs now.
      "0 PodPending pp-worker-0 0 RestartTask 5000 Pending 0 0 1 0 0 0 0 0 task=worker",
      // The binding update is OutOfSync, not a pod event: it cancels nothing.
      "0 OutOfSync pp-worker-0 0 SyncJob 0 Pending 0 0 1 0 0 0 0 0 task=worker",
      "0 - - 0 SyncJob 0 Pending 0 0 1 0 0 0 0 0",
      // The timer fires in the current phase (Pending): KillTarget(task) + RetryCount++ ->
      // Restarting; a targeted kill keeps Version 0 and the PodGroup.
      "5000 PodPending pp-worker-0 0 RestartTask 0 Restarting 1 0 0 0 0 0 1 0 task=worker fired",
      // The killed pod's out-of-sync update/deletion: Restarting sync with the PodGroup still
      // Running creates the pod again; 1 - 0 >= minAvailable 1 -> Pending.
      "5000 OutOfSync pp-worker-0 0 SyncJob 0 Pending 1 0 1 0 0 0 0 0 task=worker",
      "5000 OutOfSync - 0 SyncJob 0 Pending 1 0 1 0 0 0 0 0",
      // The new pod (new UID) is PodPending again: a new 5 s RestartTask (the fired one was
      // removed by its cleanupDelayActions).
      "5000 PodPending pp-worker-0 0 RestartTask 5000 Pending 1 0 1 0 0 0 0 0 task=worker",
      "5000 OutOfSync pp-worker-0 0 SyncJob 0 Pending 1 0 1 0 0 0 0 0 task=worker",
      // It starts within the timeout: PodRunning with the same UID cancels the delayed action.
      "6000 PodRunning pp-worker-0 0 SyncJob 0 Running 1 0 0 1 0 0 0 0 task=worker",
      "6000 OutOfSync - 0 SyncJob 0 Running 1 0 0 1 0 0 0 0",
      // No line at 10 s. The pod succeeds at 16 s: TaskCompleted (1 of 1), no policy -> SyncJob:
      // all finished, task minAvailable (defaulted to 1) met, 1 >= minAvailable -> Completed.
      "16000 TaskCompleted pp-worker-0 0 SyncJob 0 Completed 1 0 0 0 1 0 0 0 task=worker",
      "16000 OutOfSync - 0 SyncJob 0 Completed 1 1 0 0 0 0 0 0",
  }));
  EXPECT_EQ(out.back(),
            R"({"final":{"state":{"phase":"Completed","reason":"","message":"","lastTransitionTime":"1970-01-01T00:00:16Z"},)"
            R"("minAvailable":1,"taskStatusCount":{},"pending":0,"running":0,"succeeded":0,"failed":0,"terminating":0,)"
            R"("unknown":0,"version":1,"retryCount":1,"runningDuration":"16s","controlledResources":{},"conditions":[)"
            R"({"status":"Restarting","lastTransitionTime":"1970-01-01T00:00:05Z"},{"status":"Pending","lastTransitionTime":)"
            R"("1970-01-01T00:00:05Z"},{"status":"Running","lastTransitionTime":"1970-01-01T00:00:06Z"},)"
            R"({"status":"Completed","lastTransitionTime":"1970-01-01T00:00:16Z"}]},"t_ms":16000})");
}

// 3. RestartTask from a task policy shadowing the job's RestartJob for the same event.
TEST(SimulateScenario, TaskPolicyRestartTaskShadowsTheJobPolicy) {
  auto out = simulate(R"(
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: sh, namespace: default}
spec:
  policies:
    - {event: PodFailed, action: RestartJob}
  tasks:
    - name: master
      replicas: 1
      template: {spec: {restartPolicy: Never, containers: [{name: master, image: busybox}]}}
    - name: worker
      replicas: 2
      policies:
        - {event: PodFailed, action: RestartTask}
      template: {spec: {restartPolicy: Never, containers: [{name: worker, image: busybox}]}}
)",
                      R"(
defaults: {startAfter: 1s, runFor: 10s}
pods:
  sh-worker-1: [{runFor: 3s, exitCode: 2}]
)");
  EXPECT_EQ(requestLines(out), lines({
      "0 OutOfSync - 0 SyncJob 0 Pending 0 0 0 0 0 0 0 0",
      "0 OutOfSync - 0 SyncJob 0 Pending 0 0 0 0 0 0 0 0",
      "0 - - 0 SyncJob 0 Pending 0 0 3 0 0 0 0 0",
      "0 PodPending sh-master-0 0 SyncJob 0 Pending 0 0 3 0 0 0 0 0 task=master",
      "0 PodPending sh-worker-0 0 SyncJob 0 Pending 0 0 3 0 0 0 0 0 task=worker",
      "0 PodPending sh-worker-1 0 SyncJob 0 Pending 0 0 3 0 0 0 0 0 task=worker",
      "0 OutOfSync sh-master-0 0 SyncJob 0 Pending 0 0 3 0 0 0 0 0 task=master",
      "0 OutOfSync sh-worker-0 0 SyncJob 0 Pending 0 0 3 0 0 0 0 0 task=worker",
      "0 OutOfSync sh-worker-1 0 SyncJob 0 Pending 0 0 3 0 0 0 0 0 task=worker",
      "0 - - 0 SyncJob 0 Pending 0 0 3 0 0 0 0 0",
      "1000 PodRunning sh-master-0 0 SyncJob 0 Running 0 0 0 3 0 0 0 0 task=master",
      "1000 PodRunning sh-worker-0 0 SyncJob 0 Running 0 0 0 3 0 0 0 0 task=worker",
      "1000 PodRunning sh-worker-1 0 SyncJob 0 Running 0 0 0 3 0 0 0 0 task=worker",
      "1000 OutOfSync - 0 SyncJob 0 Running 0 0 0 3 0 0 0 0",
      // PodFailed of a worker: the worker task's policy matches first (task policies shadow job
      // policies): RestartTask, not RestartJob. Both worker pods (the Running one too) are
      // killed; Version unchanged; counters are only the killed pods (the running master is not
      // counted).
      "4000 PodFailed sh-worker-1 2 RestartTask 0 Restarting 1 0 0 0 0 0 2 0 task=worker",
      // Restarting sync: PodGroup kept (Running), both workers recreated; 3 - 0 >= 3 -> Pending.
      "4000 OutOfSync sh-worker-0 0 SyncJob 0 Pending 1 0 2 1 0 0 0 0 task=worker",
      "4000 OutOfSync sh-worker-1 0 SyncJob 0 Pending 1 0 2 1 0 0 0 0 task=worker",
      "4000 OutOfSync - 0 SyncJob 0 Pending 1 0 2 1 0 0 0 0",
      "4000 PodPending sh-worker-0 0 SyncJob 0 Pending 1 0 2 1 0 0 0 0 task=worker",
      "4000 PodPending sh-worker-1 0 SyncJob 0 Pending 1 0 2 1 0 0 0 0 task=worker",
      "4000 OutOfSync sh-worker-0 0 SyncJob 0 Pending 1 0 2 1 0 0 0 0 task=worker",
      "4000 OutOfSync sh-worker-1 0 SyncJob 0 Pending 1 0 2 1 0 0 0 0 task=worker",
      "5000 PodRunning sh-worker-0 0 SyncJob 0 Running 1 0 0 3 0 0 0 0 task=worker",
      "5000 PodRunning sh-worker-1 0 SyncJob 0 Running 1 0 0 3 0 0 0 0 task=worker",
      "5000 OutOfSync - 0 SyncJob 0 Running 1 0 0 3 0 0 0 0",
      // master succeeds: TaskCompleted (1 of 1); neither its task nor the job has a policy for it.
      "11000 TaskCompleted sh-master-0 0 SyncJob 0 Running 1 0 0 2 1 0 0 0 task=master",
      // Both workers succeed in one batch: the first is 1 of 2 (OutOfSync) and its sync already
      // sees 3 succeeded -> Completed; the second is TaskCompleted, handled in Completed
      // (KillJob(Soft, nil): Version 1), then the Completed echo (Version 2).
      "15000 OutOfSync sh-worker-0 0 SyncJob 0 Completed 1 0 0 0 3 0 0 0 task=worker",
      "15000 TaskCompleted sh-worker-1 0 SyncJob 0 Completed 1 1 0 0 0 0 0 0 task=worker",
      "15000 OutOfSync - 0 SyncJob 0 Completed 1 2 0 0 0 0 0 0",
  }));
  EXPECT_EQ(out.back(),
            R"({"final":{"state":{"phase":"Completed","reason":"","message":"","lastTransitionTime":"1970-01-01T00:00:15Z"},)"
            R"("minAvailable":3,"taskStatusCount":{},"pending":0,"running":0,"succeeded":0,"failed":0,"terminating":0,)"
            R"("unknown":0,"version":2,"retryCount":1,"runningDuration":"15s","controlledResources":{},"conditions":[)"
            R"({"status":"Restarting","lastTransitionTime":"1970-01-01T00:00:04Z"},{"status":"Pending","lastTransitionTime":)"
            R"("1970-01-01T00:00:04Z"},{"status":"Running","lastTransitionTime":"1970-01-01T00:00:11Z"},)"
            R"({"status":"Completed","lastTransitionTime":"1970-01-01T00:00:15Z"}]},"t_ms":15000})");
}

// 4. TaskCompleted -> CompleteJob before minSuccess is reached.
TEST(SimulateScenario, TaskCompletedCompletesTheJobBeforeMinSuccessIsReached) {
  auto out = simulate(R"(
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: tc, namespace: default}
spec:
  minSuccess: 3
  tasks:
    - name: master
      replicas: 1
      policies:
        - {event: TaskCompleted, action: CompleteJob}
      template: {spec: {restartPolicy: Never, containers: [{name: master, image: busybox}]}}
    - name: worker
      replicas: 3
      template: {spec: {restartPolicy: Never, containers: [{name: worker, image: busybox}]}}
)",
                      R"(
defaults: {startAfter: 1s, runFor: forever}
pods:
  tc-worker-0: [{runFor: 2s}]
  tc-master-0: [{runFor: 4s}]
)");
  EXPECT_EQ(requestLines(out), lines({
      "0 OutOfSync - 0 SyncJob 0 Pending 0 0 0 0 0 0 0 0",
      "0 OutOfSync - 0 SyncJob 0 Pending 0 0 0 0 0 0 0 0",
      "0 - - 0 SyncJob 0 Pending 0 0 4 0 0 0 0 0",
      "0 PodPending tc-master-0 0 SyncJob 0 Pending 0 0 4 0 0 0 0 0 task=master",
      "0 PodPending tc-worker-0 0 SyncJob 0 Pending 0 0 4 0 0 0 0 0 task=worker",
      "0 PodPending tc-worker-1 0 SyncJob 0 Pending 0 0 4 0 0 0 0 0 task=worker",
      "0 PodPending tc-worker-2 0 SyncJob 0 Pending 0 0 4 0 0 0 0 0 task=worker",
      "0 OutOfSync tc-master-0 0 SyncJob 0 Pending 0 0 4 0 0 0 0 0 task=master",
      "0 OutOfSync tc-worker-0 0 SyncJob 0 Pending 0 0 4 0 0 0 0 0 task=worker",
      "0 OutOfSync tc-worker-1 0 SyncJob 0 Pending 0 0 4 0 0 0 0 0 task=worker",
      "0 OutOfSync tc-worker-2 0 SyncJob 0 Pending 0 0 4 0 0 0 0 0 task=worker",
      "0 - - 0 SyncJob 0 Pending 0 0 4 0 0 0 0 0",
      "1000 PodRunning tc-master-0 0 SyncJob 0 Running 0 0 0 4 0 0 0 0 task=master",
      "1000 PodRunning tc-worker-0 0 SyncJob 0 Running 0 0 0 4 0 0 0 0 task=worker",
      "1000 PodRunning tc-worker-1 0 SyncJob 0 Running 0 0 0 4 0 0 0 0 task=worker",
      "1000 PodRunning tc-worker-2 0 SyncJob 0 Running 0 0 0 4 0 0 0 0 task=worker",
      "1000 OutOfSync - 0 SyncJob 0 Running 0 0 0 4 0 0 0 0",
      // worker-0 Succeeded (1 of 3): 1 < minSuccess 3, not all finished -> still Running.
      "3000 OutOfSync tc-worker-0 0 SyncJob 0 Running 0 0 0 3 1 0 0 0 task=worker",
      // master Succeeded: TaskCompleted (1 of 1) matches the master task's policy -> CompleteJob
      // (Succeeded 2 < minSuccess 3 does not matter: no sync ran). Running + CompleteJob:
      // KillJob(Soft) -> Completing; master and worker-0 (Succeeded) retained, workers 1 and 2
      // killed; Version 1.
      "5000 TaskCompleted tc-master-0 0 CompleteJob 0 Completing 0 1 0 0 0 0 2 0 task=master",
      // Completing: KillJob(Soft); no pod left Pending/Running/Terminating -> Completed.
      "5000 OutOfSync tc-worker-1 0 SyncJob 0 Completed 0 2 0 0 0 0 0 0 task=worker",
      // Completed: KillJob(Soft, nil) on every request, each bumping Version.
      "5000 OutOfSync tc-worker-2 0 SyncJob 0 Completed 0 3 0 0 0 0 0 0 task=worker",
      "5000 OutOfSync - 0 SyncJob 0 Completed 0 4 0 0 0 0 0 0",
  }));
  EXPECT_EQ(out.back(),
            R"({"final":{"state":{"phase":"Completed","reason":"","message":"","lastTransitionTime":"1970-01-01T00:00:05Z"},)"
            R"("minAvailable":4,"taskStatusCount":{},"pending":0,"running":0,"succeeded":0,"failed":0,"terminating":0,)"
            R"("unknown":0,"version":4,"retryCount":0,"runningDuration":"5s","controlledResources":{},"conditions":[)"
            R"({"status":"Pending","lastTransitionTime":"1970-01-01T00:00:00Z"},{"status":"Running","lastTransitionTime":)"
            R"("1970-01-01T00:00:03Z"},{"status":"Completing","lastTransitionTime":"1970-01-01T00:00:05Z"},)"
            R"({"status":"Completed","lastTransitionTime":"1970-01-01T00:00:05Z"}]},"t_ms":5000})");
}

// 5. AbortJob and ResumeJob commands.
TEST(SimulateScenario, AbortJobThenResumeJobCommands) {
  auto out = simulate(R"(
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: ar, namespace: default}
spec:
  tasks:
    - name: worker
      replicas: 2
      template: {spec: {restartPolicy: Never, containers: [{name: worker, image: busybox}]}}
)",
                      R"(
defaults: {startAfter: 1s, runFor: forever}
pods:
  ar-worker-0: [{runFor: 2s}]
events:
  - {at: 5s, command: AbortJob}
  - {at: 10s, command: ResumeJob}
until: 15s
)");
  EXPECT_EQ(requestLines(out), lines({
      "0 OutOfSync - 0 SyncJob 0 Pending 0 0 0 0 0 0 0 0",
      "0 OutOfSync - 0 SyncJob 0 Pending 0 0 0 0 0 0 0 0",
      "0 - - 0 SyncJob 0 Pending 0 0 2 0 0 0 0 0",
      "0 PodPending ar-worker-0 0 SyncJob 0 Pending 0 0 2 0 0 0 0 0 task=worker",
      "0 PodPending ar-worker-1 0 SyncJob 0 Pending 0 0 2 0 0 0 0 0 task=worker",
      "0 OutOfSync ar-worker-0 0 SyncJob 0 Pending 0 0 2 0 0 0 0 0 task=worker",
      "0 OutOfSync ar-worker-1 0 SyncJob 0 Pending 0 0 2 0 0 0 0 0 task=worker",
      "0 - - 0 SyncJob 0 Pending 0 0 2 0 0 0 0 0",
      "1000 PodRunning ar-worker-0 0 SyncJob 0 Running 0 0 0 2 0 0 0 0 task=worker",
      "1000 PodRunning ar-worker-1 0 SyncJob 0 Running 0 0 0 2 0 0 0 0 task=worker",
      "1000 OutOfSync - 0 SyncJob 0 Running 0 0 0 2 0 0 0 0",
      "3000 OutOfSync ar-worker-0 0 SyncJob 0 Running 0 0 0 1 1 0 0 0 task=worker",
      // AbortJob (the command's explicit action): Running -> KillJob(Soft): worker-0 Succeeded is
      // retained, worker-1 killed; Aborting, Version 1.
      "5000 CommandIssued - 0 AbortJob 0 Aborting 0 1 0 0 0 0 1 0",
      // Aborting: KillJob(Soft); no live pod -> Aborted (Version 2); Aborted: KillJob(Soft, nil).
      "5000 OutOfSync ar-worker-1 0 SyncJob 0 Aborted 0 2 0 0 0 0 0 0 task=worker",
      "5000 OutOfSync - 0 SyncJob 0 Aborted 0 3 0 0 0 0 0 0",
      // ResumeJob in Aborted: KillJob(Soft) -> Restarting, RetryCount 1, Version 4 (full kill,
      // nothing left to kill; the PodGroup is deleted).
      "10000 CommandIssued - 0 ResumeJob 0 Restarting 1 4 0 0 0 0 0 0",
      // Restarting sync, new PodGroup not scheduled: restartingUpdateStatus on the existing
      // status: 2 - terminating 0 >= status.minAvailable 2 -> Pending; then its echo.
      "10000 OutOfSync - 0 SyncJob 0 Pending 1 4 0 0 0 0 0 0",
      "10000 OutOfSync - 0 SyncJob 0 Pending 1 4 0 0 0 0 0 0",
      // PodGroup enqueued: the retained worker-0 counts Succeeded, worker-1 is created (Pending):
      // 0 + 1 + 0 < minAvailable 2 -> stays Pending.
      "10000 - - 0 SyncJob 0 Pending 1 4 1 0 1 0 0 0",
      "10000 PodPending ar-worker-1 0 SyncJob 0 Pending 1 4 1 0 1 0 0 0 task=worker",
      "10000 OutOfSync ar-worker-1 0 SyncJob 0 Pending 1 4 1 0 1 0 0 0 task=worker",
      "10000 - - 0 SyncJob 0 Pending 1 4 1 0 1 0 0 0",
      // worker-1 runs: Running 1 + Succeeded 1 >= 2 -> Running.
      "11000 PodRunning ar-worker-1 0 SyncJob 0 Running 1 4 0 1 1 0 0 0 task=worker",
      "11000 OutOfSync - 0 SyncJob 0 Running 1 4 0 1 1 0 0 0",
  }));
  EXPECT_EQ(out.back(),
            R"({"final":{"state":{"phase":"Running","reason":"","message":"","lastTransitionTime":"1970-01-01T00:00:11Z"},)"
            R"("minAvailable":2,"taskStatusCount":{"worker":{"phase":{"Running":1,"Succeeded":1}}},"pending":0,)"
            R"("running":1,"succeeded":1,"failed":0,"terminating":0,"unknown":0,"version":4,"retryCount":1,)"
            R"("runningDuration":null,"controlledResources":{},"conditions":[{"status":"Aborting","lastTransitionTime":"1970-01-01T00:00:05Z"},)"
            R"({"status":"Aborted","lastTransitionTime":"1970-01-01T00:00:05Z"},{"status":"Restarting",)"
            R"("lastTransitionTime":"1970-01-01T00:00:10Z"},{"status":"Pending","lastTransitionTime":"1970-01-01T00:00:10Z"},)"
            R"({"status":"Running","lastTransitionTime":"1970-01-01T00:00:11Z"}]},"t_ms":15000})");
}

// 6. TaskFailed from container restarts in place (restartPolicy OnFailure).
TEST(SimulateScenario, TaskFailedFromRestartCountsAbortsTheJob) {
  auto out = simulate(R"(
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: tf, namespace: default}
spec:
  policies:
    - {event: TaskFailed, action: AbortJob}
  tasks:
    - name: worker
      replicas: 2
      template: {spec: {restartPolicy: OnFailure, containers: [{name: worker, image: busybox}]}}
)",
                      R"(
defaults: {startAfter: 1s, runFor: forever}
pods:
  tf-worker-1: [{restarts: [{at: 2s}, {at: 4s}, {at: 6s}]}]
until: 10s
)");
  EXPECT_EQ(requestLines(out), lines({
      "0 OutOfSync - 0 SyncJob 0 Pending 0 0 0 0 0 0 0 0",
      "0 OutOfSync - 0 SyncJob 0 Pending 0 0 0 0 0 0 0 0",
      "0 - - 0 SyncJob 0 Pending 0 0 2 0 0 0 0 0",
      "0 PodPending tf-worker-0 0 SyncJob 0 Pending 0 0 2 0 0 0 0 0 task=worker",
      "0 PodPending tf-worker-1 0 SyncJob 0 Pending 0 0 2 0 0 0 0 0 task=worker",
      "0 OutOfSync tf-worker-0 0 SyncJob 0 Pending 0 0 2 0 0 0 0 0 task=worker",
      "0 OutOfSync tf-worker-1 0 SyncJob 0 Pending 0 0 2 0 0 0 0 0 task=worker",
      "0 - - 0 SyncJob 0 Pending 0 0 2 0 0 0 0 0",
      "1000 PodRunning tf-worker-0 0 SyncJob 0 Running 0 0 0 2 0 0 0 0 task=worker",
      "1000 PodRunning tf-worker-1 0 SyncJob 0 Running 0 0 0 2 0 0 0 0 task=worker",
      "1000 OutOfSync - 0 SyncJob 0 Running 0 0 0 2 0 0 0 0",
      // Restarts 1 and 2 (Running -> Running): the task's restart sum is below its maxRetry (3,
      // the default): plain OutOfSync.
      "3000 OutOfSync tf-worker-1 0 SyncJob 0 Running 0 0 0 2 0 0 0 0 task=worker",
      "5000 OutOfSync tf-worker-1 0 SyncJob 0 Running 0 0 0 2 0 0 0 0 task=worker",
      // Restart 3: 3 >= 3 -> TaskFailed -> the job policy's AbortJob; both pods killed.
      "7000 TaskFailed tf-worker-1 0 AbortJob 0 Aborting 0 1 0 0 0 0 2 0 task=worker",
      "7000 OutOfSync tf-worker-0 0 SyncJob 0 Aborted 0 2 0 0 0 0 0 0 task=worker",
      "7000 OutOfSync tf-worker-1 0 SyncJob 0 Aborted 0 3 0 0 0 0 0 0 task=worker",
      "7000 OutOfSync - 0 SyncJob 0 Aborted 0 4 0 0 0 0 0 0",
  }));
  EXPECT_NE(out.back().find(R"("phase":"Aborted")"), std::string::npos);
  EXPECT_NE(out.back().find(R"("t_ms":10000})"), std::string::npos);
}

// The output must not depend on thread timing. A kill run by a fired delayed action (a task
// posted to the job's worker, not a request) is followed by one batch holding each killed pod's
// out-of-sync update and deletion -- one identical request, which must be deduplicated every time
// (WorkerPool::addAll queues a batch before the worker can start on any of it).
TEST(SimulateDeterminism, KillFromADelayedActionIsDeduplicatedEveryTime) {
  const std::string job = R"(
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: pp, namespace: default}
spec:
  tasks:
    - name: worker
      replicas: 1
      policies:
        - {event: PodPending, action: RestartTask, timeout: 5s}
      template: {spec: {restartPolicy: Never, containers: [{name: worker, image: busybox}]}}
)";
  const std::string script = "defaults: {startAfter: 1s, runFor: 10s}\npods:\n  pp-worker-0: [{startAfter: 8s}]\n";
  const auto first = simulate(job, script);
  for (int i = 0; i < 60; ++i) {
    auto again = simulate(job, script);
    ASSERT_EQ(again, first) << "run " << i;
  }
  // One line per killed pod after the fired RestartTask.
  EXPECT_EQ(std::count(first.begin(), first.end(),
                       line("5000 OutOfSync pp-worker-0 0 SyncJob 0 Pending 1 0 1 0 0 0 0 0 task=worker")),
            2);  // the killed pod's request, and the recreated pod's binding update
}

// A volume names a claim that does not exist (spec §6.6): every sync fails at createJobIO before the
// PodGroup is made, and the request is requeued with client-go's backoff (5 ms doubling). The job's
// add and the echo of its Pending status write are one request, failed twice at 0 ms (the second
// failure keeps the 5 ms wait already armed). Created at 30 s, the claim is found by the retry due
// at 20,465 + 20,480 = 40,945 ms; never created, the 16th failure (15 requeues, maxRequeue)
// terminates the job at 163,825 ms.
const std::string kClaimJob = R"(
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: data, namespace: default}
spec:
  volumes:
    - {mountPath: /data, volumeClaimName: shared-data}
  tasks:
    - name: worker
      replicas: 2
      template: {spec: {restartPolicy: Never, containers: [{name: worker, image: busybox}]}}
)";
const std::string kClaimMissing =
    "PVCError: pvc shared-data is not found, the job will be in the Pending state until the PVC is created";

std::vector<std::string> claimFailures(const std::vector<int>& atMs) {
  std::vector<std::string> out;
  for (int t : atMs)
    out.push_back(failedLine(std::to_string(t) + " OutOfSync - 0 SyncJob 0 Pending 0 0 0 0 0 0 0 0", kClaimMissing, "requeued"));
  return out;
}

TEST(SimulateScenario, AMissingClaimKeepsTheJobPendingUntilItIsCreated) {
  auto out = simulate(kClaimJob, "missingPvcs: [shared-data]\nevents:\n  - {at: 30s, createPvc: shared-data}\n");
  auto expected = claimFailures({0, 0, 5, 25, 65, 145, 305, 625, 1265, 2545, 5105, 10225, 20465});
  for (const auto& l : lines({
           "40945 OutOfSync - 0 SyncJob 0 Pending 0 0 0 0 0 0 0 0",
           "40945 - - 0 SyncJob 0 Pending 0 0 2 0 0 0 0 0",
           "40945 PodPending data-worker-0 0 SyncJob 0 Pending 0 0 2 0 0 0 0 0 task=worker",
       }))
    expected.push_back(l);
  ASSERT_GE(out.size(), expected.size());
  EXPECT_EQ(std::vector<std::string>(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(expected.size())), expected);
  EXPECT_NE(out.back().find(R"("phase":"Completed")"), std::string::npos) << out.back();
  EXPECT_NE(out.back().find(R"("controlledResources":{"volume-pvc-shared-data":"shared-data"})"), std::string::npos)
      << out.back();
}

TEST(SimulateScenario, AClaimNeverCreatedTerminatesTheJobOnceMaxRequeueIsSpent) {
  auto out = simulate(kClaimJob, "missingPvcs: [shared-data]\n");
  auto expected = claimFailures({0, 0, 5, 25, 65, 145, 305, 625, 1265, 2545, 5105, 10225, 20465, 40945, 81905});
  // numRequeues is 15 (maxRequeue): TerminateJob from Pending kills (Version 1) -> Terminating.
  expected.push_back(failedLine("163825 OutOfSync - 0 SyncJob 0 Terminating 0 1 0 0 0 0 0 0", kClaimMissing,
                                "retryLimitReached"));
  EXPECT_EQ(std::vector<std::string>(out.begin(), out.begin() + std::min(out.size(), expected.size())), expected);
  EXPECT_NE(out.back().find(R"("phase":"Terminated")"), std::string::npos) << out.back();
  EXPECT_NE(out.back().find(R"("t_ms":163825})"), std::string::npos) << out.back();
}

}  // namespace
}  // namespace jobhost::testing
