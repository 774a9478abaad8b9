// `jobhost run`'s progress and summary: pod counts per task and why the gang waits, pod outcomes
// per task counted from pod events (succeeded, failed, killed, restarts) and the summary text.
#include <gtest/gtest.h>

#include <sstream>

#include "host/cli/run_progress.h"

namespace jobhost::cli {
namespace {

struct Sink : ClusterListener {
  size_t seen = 0;
  void onClusterEvents(std::span<ClusterEvent> events) override { seen += events.size(); }
};

PodState pod(const std::string& name, const std::string& task, const std::string& uid, PodPhase phase,
             int32_t exitCode = 0, int32_t restarts = 0) {
  auto object = std::make_shared<Pod>();
  object->metadata.name = name;
  object->metadata.namespace_ = "default";
  object->metadata.uid = uid;
  object->metadata.annotations = {{"volcano.sh/job-name", "demo"}, {"volcano.sh/task-spec", task}};
  PodState s;
  s.object = object;
  s.status.phase = phase;
  ContainerStatus c;
  c.name = "main";
  c.restartCount = restarts;
  if (phase == PodPhase::Succeeded || phase == PodPhase::Failed)
    c.terminated = ContainerStateTerminated{exitCode, 0, exitCode ? "Error" : "Completed", ""};
  s.status.containerStatuses.push_back(c);
  return s;
}

ClusterEvent event(ClusterEvent::Type type, PodState state) {
  ClusterEvent ev;
  ev.type = type;
  ev.pod = std::move(state);
  return ev;
}

Job demo() {
  Job job;
  job.metadata.name = "demo";
  job.metadata.namespace_ = "default";
  job.spec.tasks = {TaskSpec{}, TaskSpec{}};
  job.spec.tasks[0].name = "master";
  job.spec.tasks[1].name = "worker";
  return job;
}

using T = ClusterEvent::Type;

// The summary `jobhost run` prints for job default/demo (logs under /w) with these outcomes.
std::string summaryOf(const PodOutcomes& outcomes, JobPhase phase, int32_t retryCount, int64_t elapsedMs) {
  JobProgress progress;
  progress.job = "default/demo";
  progress.phase = phase;
  progress.retryCount = retryCount;
  progress.elapsedMs = elapsedMs;
  std::ostringstream out;
  printSummary(out, progress, outcomes.byTask(demo()), outcomes.failedPods(), "/w/default/demo", false);
  return out.str();
}

TEST(RunSummary, CountsEveryIncarnationByItsLastObservedPhase) {
  Sink sink;
  PodOutcomes outcomes(sink, "default", "demo");
  std::vector<ClusterEvent> batch = {
      event(T::PodAdded, pod("demo-worker-0", "worker", "w0", PodPhase::Pending)),
      event(T::PodAdded, pod("demo-worker-1", "worker", "w1", PodPhase::Pending)),
      event(T::PodAdded, pod("demo-master-0", "master", "m0", PodPhase::Pending)),
      event(T::PodUpdated, pod("demo-worker-0", "worker", "w0", PodPhase::Running, 0, 1)),
      event(T::PodUpdated, pod("demo-worker-0", "worker", "w0", PodPhase::Succeeded, 0, 1)),
      event(T::PodUpdated, pod("demo-worker-1", "worker", "w1", PodPhase::Failed, 137)),
      event(T::PodUpdated, pod("demo-master-0", "master", "m0", PodPhase::Running)),
      // killed while running: the deletion's last state (SIGTERM, 143) is not its outcome
      event(T::PodDeleted, pod("demo-master-0", "master", "m0", PodPhase::Failed, 143)),
      event(T::PodDeleted, pod("demo-worker-0", "worker", "w0", PodPhase::Succeeded, 0, 1)),
      event(T::PodDeleted, pod("demo-worker-1", "worker", "w1", PodPhase::Failed, 137)),
      // the recreated worker-1 succeeds; another job's pod is ignored
      event(T::PodAdded, pod("demo-worker-1", "worker", "w1b", PodPhase::Pending)),
      event(T::PodUpdated, pod("demo-worker-1", "worker", "w1b", PodPhase::Succeeded)),
      event(T::PodDeleted, pod("demo-worker-1", "worker", "w1b", PodPhase::Succeeded)),
  };
  // after a job restart (retry 1) worker-0 fails too: its line says which incarnation it was
  PodState retried = pod("demo-worker-0", "worker", "w0b", PodPhase::Failed, 2);
  std::const_pointer_cast<Pod>(retried.object)->metadata.annotations["volcano.sh/job-retry-count"] = "1";
  std::const_pointer_cast<Pod>(retried.object)->metadata.creationTimestamp = 5000;
  batch.push_back(event(T::PodUpdated, retried));
  PodState other = pod("x-worker-0", "worker", "x0", PodPhase::Succeeded);
  std::const_pointer_cast<Pod>(other.object)->metadata.annotations["volcano.sh/job-name"] = "x";
  batch.push_back(event(T::PodUpdated, other));
  outcomes.onClusterEvents(batch);
  EXPECT_EQ(sink.seen, 15u);
  EXPECT_EQ(outcomes.byTask(demo()), std::vector<TaskOutcome>({{"master", 0, 0, 1, 0}, {"worker", 2, 2, 0, 1}}));

  EXPECT_EQ(summaryOf(outcomes, JobPhase::Completed, 1, 2345),
            "\njob default/demo ended Completed (retry 1) after 2.3s\n"
            "  task master: pods succeeded 0, failed 0, killed 1, restarts 0\n"
            "  task worker: pods succeeded 2, failed 2, restarts 1\n"
            "  pod demo-worker-0 (job retry 1) container main exited 2: /w/default/demo/demo-worker-0/logs/main.log\n"
            "  pod demo-worker-1 container main exited 137: /w/default/demo/demo-worker-1/logs/main.log\n"
            "logs: /w/default/demo/<pod>/logs/<container>.log\n");
}

// The summary of job default/demo, Failed after 0.2 s, whose one pod demo-worker-0 was created
// and then ended as `failed`.
std::string summaryOfOneFailedWorker(const PodState& failed) {
  Sink sink;
  PodOutcomes outcomes(sink, "default", "demo");
  std::vector<ClusterEvent> batch = {event(T::PodAdded, pod("demo-worker-0", "worker", "w0", PodPhase::Pending)),
                                     event(T::PodUpdated, failed)};
  outcomes.onClusterEvents(batch);
  return summaryOf(outcomes, JobPhase::Failed, 0, 200);
}

constexpr const char* kOneFailedWorker =
    "\njob default/demo ended Failed after 0.2s\n"
    "  task master: pods succeeded 0, failed 0, restarts 0\n"
    "  task worker: pods succeeded 0, failed 1, restarts 0\n";

// A container that could not start says why in the summary, not only "exited 128".
TEST(RunSummary, AStartErrorIsQuotedWithItsExitCode) {
  PodState failed = pod("demo-worker-0", "worker", "w0", PodPhase::Failed, 128);
  failed.status.containerStatuses[0].terminated->reason = "StartError";
  failed.status.containerStatuses[0].terminated->message = "executable \"train\" not found in PATH";
  EXPECT_EQ(summaryOfOneFailedWorker(failed),
            std::string(kOneFailedWorker) +
                "  pod demo-worker-0 container main exited 128 (cannot start: executable \"train\" not found in PATH): "
                "/w/default/demo/demo-worker-0/logs/main.log\n"
                "logs: /w/default/demo/<pod>/logs/<container>.log\n");
}

// A pod whose init container failed never ran its containers: the init container is the one named.
TEST(RunSummary, AFailedInitContainerIsNamed) {
  PodState failed = pod("demo-worker-0", "worker", "w0", PodPhase::Failed);
  failed.status.containerStatuses[0].terminated.reset();  // waiting: PodInitializing
  ContainerStatus init;
  init.name = "fetch-data";
  init.terminated = ContainerStateTerminated{3, 0, "Error", ""};
  failed.status.initContainerStatuses = {init};
  EXPECT_EQ(summaryOfOneFailedWorker(failed),
            std::string(kOneFailedWorker) +
                "  pod demo-worker-0 init container fetch-data exited 3: "
                "/w/default/demo/demo-worker-0/logs/fetch-data.log\n"
                "logs: /w/default/demo/<pod>/logs/<container>.log\n");
}

PodGroupCondition condition(const std::string& type, const std::string& status, TimeMs at,
                            const std::string& reason = "", const std::string& message = "") {
  return PodGroupCondition{type, status, reason, message, at};
}

TEST(RunProgress, ShowsWhyTheGangWaitsFromThePodGroupsLatestTrueCondition) {
  PodGroup pg;
  pg.status.phase = "Pending";
  pg.status.conditions = {condition("Scheduled", "True", 1000),
                          condition("Unschedulable", "True", 5000, "NotEnoughResources", "1/3 tasks in gang unschedulable"),
                          condition("Unschedulable", "False", 9000)};
  const std::vector<PodState> pods = {pod("demo-master-0", "master", "m0", PodPhase::Pending),
                                      pod("demo-worker-0", "worker", "w0", PodPhase::Pending)};
  JobProgress progress = takeProgress(demo(), pods, pg, 1500);
  EXPECT_EQ(progress.waiting, "unschedulable: NotEnoughResources: 1/3 tasks in gang unschedulable");
  std::ostringstream out;
  ProgressView(out, false).show(progress);
  EXPECT_EQ(out.str(),
            "[1.5s   ] Submitted     master 1/0/0/0  worker 1/0/0/0  waiting: unschedulable: NotEnoughResources: 1/3 "
            "tasks in gang unschedulable\n");

  pg.status.conditions.push_back(condition("Scheduled", "True", 7000));  // placed since
  EXPECT_EQ(takeProgress(demo(), pods, pg, 1500).waiting, "");
  EXPECT_EQ(takeProgress(demo(), pods, std::nullopt, 1500).waiting, "");
}

// Phases that came and went between two snapshots still get a line each (from the job's
// conditions, at the time they were entered); a phase re-stamped while current gets none.
TEST(RunProgress, PlainViewPrintsThePhasesEnteredBetweenSnapshots) {
  Job job = demo();
  job.metadata.creationTimestamp = 10'000;
  const std::vector<PodState> none;
  std::ostringstream out;
  ProgressView view(out, false);
  job.status.state.phase = JobPhase::Pending;
  job.status.conditions = {{JobPhase::Pending, 10'000}};
  view.show(takeProgress(job, none, std::nullopt, 100));
  job.status.state.phase = JobPhase::Aborted;
  job.status.conditions = {{JobPhase::Pending, 10'000}, {JobPhase::Running, 10'300}, {JobPhase::Aborting, 10'450},
                           {JobPhase::Aborted, 10'450}};
  view.show(takeProgress(job, none, std::nullopt, 500));
  EXPECT_EQ(out.str(),
            "[0.1s   ] Pending       master 0/0/0/0  worker 0/0/0/0\n"
            "[0.3s   ] Running\n"
            "[0.5s   ] Aborting\n"
            "[0.5s   ] Aborted       master 0/0/0/0  worker 0/0/0/0\n");
}

// Once the gang is placed, a pod the backend holds back says why.
TEST(RunProgress, ShowsWhyAPlacedPodWaits) {
  PodState held = pod("demo-worker-0", "worker", "w0", PodPhase::Pending);
  held.status.reason = "CreateContainerConfigError";
  held.status.message = "container main: secret \"hf-token\" not found";
  const std::vector<PodState> pods = {pod("demo-master-0", "master", "m0", PodPhase::Running), held};
  EXPECT_EQ(takeProgress(demo(), pods, std::nullopt, 1500).waiting,
            "pod demo-worker-0: CreateContainerConfigError: container main: secret \"hf-token\" not found");
}

// A task whose dependsOn is not met has no pods yet: the progress says which dependency holds it
// (Succeeded, or Running with every container ready, against the dependency's minAvailable).
TEST(RunProgress, ShowsWhichDependencyATaskWaitsFor) {
  Job job = demo();
  job.spec.tasks[0].minAvailable = 2;
  job.spec.tasks[1].dependsOn = DependsOn{{"master"}, ""};
  job.status.state.phase = JobPhase::Running;
  PodState unready = pod("demo-master-1", "master", "m1", PodPhase::Running);
  unready.status.containerStatuses[0].ready = false;
  PodState ready = pod("demo-master-0", "master", "m0", PodPhase::Running);
  ready.status.containerStatuses[0].ready = true;
  EXPECT_EQ(takeProgress(job, {ready, unready}, std::nullopt, 100).waiting,
            "dependsOn: task worker waits for master 1/2 ready");
  unready.status.containerStatuses[0].ready = true;
  EXPECT_EQ(takeProgress(job, {ready, unready}, std::nullopt, 100).waiting, "");

  // With iteration "any" one met dependency is enough; while none is, every one is listed.
  job.spec.tasks.push_back(TaskSpec{});
  job.spec.tasks[2].name = "eval";
  job.spec.tasks[2].minAvailable = 1;
  job.spec.tasks[1].dependsOn = DependsOn{{"master", "eval"}, "any"};
  unready.status.containerStatuses[0].ready = false;
  EXPECT_EQ(takeProgress(job, {ready, unready}, std::nullopt, 100).waiting,
            "dependsOn: task worker waits for any of master 1/2 ready, eval 0/1 ready");
  EXPECT_EQ(takeProgress(job, {ready, unready, pod("demo-eval-0", "eval", "e0", PodPhase::Succeeded)}, std::nullopt, 100)
                .waiting,
            "");
  // Once the dependent task has pods, or the job restarts, there is nothing to wait for.
  EXPECT_EQ(takeProgress(job, {ready, unready, pod("demo-worker-0", "worker", "w0", PodPhase::Pending)}, std::nullopt, 100)
                .waiting,
            "");
  job.status.state.phase = JobPhase::Restarting;
  EXPECT_EQ(takeProgress(job, {}, std::nullopt, 100).waiting, "");
}

}  // namespace
}  // namespace jobhost::cli
