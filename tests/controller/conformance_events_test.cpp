// Spec §1, rule by rule: which request each cluster change produces — pod updated (exit code of
// the first container, TaskCompleted, TaskFailed from restart counts, PodRunning/PodPending over
// TaskFailed, the out-of-sync annotation last), pod deleted, PodGroup phase changes, the owner
// check — and the
// cache's TaskCompleted / TaskFailed predicates. Injected events and the sim, virtual clock only.
#include <gtest/gtest.h>

#include "controller_fixture.h"
#include "host/controller/job_cache.h"

namespace jobhost::testing {
namespace {

// ---- the cache predicates (pkg/controllers/cache/cache.go) ----

PodRecord record(const std::string& task, PodPhase phase, int32_t restarts = 0) {
  PodRecord r;
  r.uid = "u";
  r.task = task;
  r.phase = phase;
  r.restarts = restarts;
  return r;
}

TEST(TaskCompletedPredicate, EverySucceededPodOfTheTaskKeyCountsAgainstReplicas) {
  JobEntry e("default/j");
  e.setJob(makeJob("j", {{"a", 2}, {"b", 0}}));
  EXPECT_FALSE(e.taskCompleted("a"));  // no pods of the task
  e.addPod("j-a-0", record("a", PodPhase::Succeeded));
  EXPECT_FALSE(e.taskCompleted("a"));  // 1 < 2
  e.addPod("j-a-1", record("a", PodPhase::Running));
  EXPECT_FALSE(e.taskCompleted("a"));
  e.updatePod("j-a-1", record("a", PodPhase::Succeeded));
  EXPECT_TRUE(e.taskCompleted("a"));  // 2 >= 2
  e.addPod("j-a-7", record("a", PodPhase::Failed));  // a stray pod does not matter
  EXPECT_TRUE(e.taskCompleted("a"));
  // replicas must be > 0: a succeeded stray pod of a task scaled to zero never completes it.
  e.addPod("j-b-0", record("b", PodPhase::Succeeded));
  EXPECT_FALSE(e.taskCompleted("b"));
  // a task key that is no spec task has 0 replicas.
  e.addPod("j-zz-0", record("zz", PodPhase::Succeeded));
  EXPECT_FALSE(e.taskCompleted("zz"));
}

TEST(TaskFailedPredicate, RestartsOfRunningAndPendingPodsReachMaxRetry) {
  Job job = makeJob("j", {{"a", 2}, {"b", 1}, {"c", 1}});
  job.spec.tasks[0].maxRetry = 2;
  job.spec.tasks[1].maxRetry = 0;   // 0 means 3
  job.spec.tasks[2].maxRetry = -1;  // never fails
  JobEntry e("default/j");
  e.setJob(job);
  e.addPod("j-a-0", record("a", PodPhase::Running, 1));
  EXPECT_FALSE(e.taskFailed("a"));
  e.addPod("j-a-1", record("a", PodPhase::Pending, 1));
  EXPECT_TRUE(e.taskFailed("a"));  // 1 + 1 >= 2 (>=, not >)
  e.updatePod("j-a-1", record("a", PodPhase::Failed, 5));
  EXPECT_FALSE(e.taskFailed("a"));  // only Running and Pending pods are summed
  e.updatePod("j-a-1", record("a", PodPhase::Succeeded, 5));
  EXPECT_FALSE(e.taskFailed("a"));

  e.addPod("j-b-0", record("b", PodPhase::Running, 2));
  EXPECT_FALSE(e.taskFailed("b"));
  e.updatePod("j-b-0", record("b", PodPhase::Running, 3));
  EXPECT_TRUE(e.taskFailed("b"));  // maxRetry 0 -> 3

  e.addPod("j-c-0", record("c", PodPhase::Running, 1000));
  EXPECT_FALSE(e.taskFailed("c"));  // maxRetry -1: no limit
}

// Volcano's TaskFailed also returns false when the task has 0 replicas (`taskReplicas == 0 ||
// maxRetry == -1`, pkg/controllers/cache/cache.go); the spec's §1 text does not mention it.
TEST(TaskFailedPredicate, ATaskScaledToZeroNeverFails) {
  Job job = makeJob("j", {{"a", 0}});
  JobEntry e("default/j");
  e.setJob(job);
  e.addPod("j-a-0", record("a", PodPhase::Running, 10));  // a stray pod left under the task
  EXPECT_FALSE(e.taskFailed("a"));
}

// ---- requests from pod and PodGroup changes (job_controller_handler.go) ----

class PodEvents : public ControllerTest {
 protected:
  void SetUp() override {
    defaults = runsForever(1000);
    start();
  }
  PodState pod(const std::string& name) {
    auto p = sim->getPod(ns, name);
    EXPECT_TRUE(p) << name;
    return p ? *p : PodState{};
  }
  /// Injects an update of `before` changed by `change` (as the informer would report it) and
  /// returns the requests it caused.
  std::vector<HandledRequest> update(const PodState& before, const std::function<void(PodState&)>& change) {
    PodState after = before;
    change(after);
    after.resourceVersion = before.resourceVersion + 100'000 + ++seq_;
    ClusterEvent ev;
    ev.type = ClusterEvent::Type::PodUpdated;
    ev.pod = after;
    ev.oldPodPhase = before.status.phase;
    ev.oldResourceVersion = before.resourceVersion;
    controller->listener().onClusterEvents(std::span(&ev, 1));
    settle();
    // The request of the injected change comes first; what its handling caused follows.
    return take();
  }
  static void markOutOfSync(PodState& s) {
    auto object = std::make_shared<Pod>(*s.object);
    object->metadata.annotations[std::string(keys::OutOfSyncMarker)] = "true";
    s.object = std::move(object);
  }
  int seq_ = 0;
};

// The job-version annotation is read with Go's strconv.Atoi narrowed to int32: a sign is allowed,
// spaces are not (the pod is then not a Volcano job's pod: no request), larger values wrap.
TEST_F(PodEvents, JobVersionIsParsedLikeGoAtoi) {
  run(makeJob("job", {{"worker", 1}}));
  auto versioned = [&](const std::string& version) {
    return update(pod("job-worker-0"), [&](PodState& s) {
      auto object = std::make_shared<Pod>(*s.object);
      object->metadata.annotations[std::string(keys::JobVersion)] = version;
      s.object = std::move(object);
    });
  };
  auto plus = versioned("+0");
  ASSERT_FALSE(plus.empty());
  EXPECT_EQ(plus[0].request.jobVersion, 0);
  EXPECT_TRUE(versioned(" 0").empty());
  EXPECT_TRUE(versioned("0x1").empty());
  EXPECT_TRUE(versioned("+-1").empty());
  auto wrapped = versioned("4294967297");  // 2^32 + 1: int32(1)
  ASSERT_FALSE(wrapped.empty());
  EXPECT_EQ(wrapped[0].request.jobVersion, 1);
}

TEST_F(PodEvents, FailedTakesTheExitCodeOfTheFirstContainerOnly) {
  Job job = makeJob("job", {{"worker", 1}});
  Container side;
  side.name = "side";
  side.image = "busybox";
  job.spec.tasks[0].template_.spec.containers.push_back(side);
  job.spec.policies = {onExitCode(137, "AbortJob")};
  run(job);
  auto lines = update(pod("job-worker-0"), [](PodState& s) {
    s.status.phase = PodPhase::Failed;
    s.status.containerStatuses[0].terminated = ContainerStateTerminated{1, 0, "Error", ""};
    s.status.containerStatuses[1].terminated = ContainerStateTerminated{137, 0, "Error", ""};
  });
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines[0].request.event, "PodFailed");
  EXPECT_EQ(lines[0].request.exitCode, 1);  // containerStatuses[0] only: 137 never matches
  EXPECT_EQ(lines[0].action, "SyncJob");
}

TEST_F(PodEvents, FailedWithoutATerminatedFirstContainerHasExitCodeZero) {
  Job job = makeJob("job", {{"worker", 1}});
  run(job);
  auto lines = update(pod("job-worker-0"), [](PodState& s) { s.status.phase = PodPhase::Failed; });
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines[0].request.event, "PodFailed");
  EXPECT_EQ(lines[0].request.exitCode, 0);
  // Failed -> Failed again (any other change) is no new PodFailed.
  PodState failed = pod("job-worker-0");
  failed.status.phase = PodPhase::Failed;
  auto again = update(failed, [](PodState& s) { s.status.reason = "still"; });
  ASSERT_FALSE(again.empty());
  EXPECT_EQ(again[0].request.event, "OutOfSync");
}

TEST_F(PodEvents, SucceededIsTaskCompletedOnlyForTheLastReplica) {
  defaults = runs(5000, 0, 1000);
  script("job-worker-1", {runs(6000, 0, 1000)});
  submit(makeJob("job", {{"worker", 2}}));
  runTo(1000);
  take();
  runTo(6000);
  auto first = takeEvent("OutOfSync");  // worker-0 succeeded: 1 of 2
  ASSERT_FALSE(first.empty());
  EXPECT_EQ(first[0].request.podName, "job-worker-0");
  runTo(7000);
  auto last = takeEvent("TaskCompleted");  // worker-1 succeeded: 2 of 2
  ASSERT_EQ(last.size(), 1u);
  EXPECT_EQ(last[0].request.podName, "job-worker-1");
  EXPECT_EQ(last[0].request.taskName, "worker");
}

TEST_F(PodEvents, RestartsMakeTaskFailedWhileRunningButPodRunningWins) {
  Job job = makeJob("job", {{"worker", 1}});
  job.spec.tasks[0].maxRetry = 2;
  run(job);
  PodState p = pod("job-worker-0");
  // Running -> Running with 1 restart: below maxRetry, plain OutOfSync.
  auto a = update(p, [](PodState& s) { s.status.containerStatuses[0].restartCount = 1; });
  ASSERT_FALSE(a.empty());
  EXPECT_EQ(a[0].request.event, "OutOfSync");
  // Running -> Running with 2 restarts (2 >= maxRetry): TaskFailed.
  p.status.containerStatuses[0].restartCount = 1;
  auto b = update(p, [](PodState& s) { s.status.containerStatuses[0].restartCount = 2; });
  ASSERT_FALSE(b.empty());
  EXPECT_EQ(b[0].request.event, "TaskFailed");
  // Pending -> Running with the task failed: PodRunning overrides TaskFailed.
  p.status.containerStatuses[0].restartCount = 2;
  p.status.phase = PodPhase::Pending;
  auto c = update(p, [](PodState& s) { s.status.phase = PodPhase::Running; });
  ASSERT_FALSE(c.empty());
  EXPECT_EQ(c[0].request.event, "PodRunning");
  // Running -> Pending with the task failed: PodPending overrides TaskFailed ...
  p.status.phase = PodPhase::Running;
  auto d = update(p, [](PodState& s) { s.status.phase = PodPhase::Pending; });
  ASSERT_FALSE(d.empty());
  EXPECT_EQ(d[0].request.event, "PodPending");
  // ... and Pending -> Pending stays TaskFailed.
  p.status.phase = PodPhase::Pending;
  auto e = update(p, [](PodState& s) { s.status.reason = "x"; });
  ASSERT_FALSE(e.empty());
  EXPECT_EQ(e[0].request.event, "TaskFailed");
}

TEST_F(PodEvents, InitContainerRestartsCountToo) {
  Job job = makeJob("job", {{"worker", 1}});
  job.spec.tasks[0].maxRetry = 3;
  run(job);
  auto lines = update(pod("job-worker-0"), [](PodState& s) {
    s.status.containerStatuses[0].restartCount = 1;
    s.status.initContainerStatuses.push_back(ContainerStatus{"init", false, 2, false, {}, {}});
  });
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines[0].request.event, "TaskFailed");
}

TEST_F(PodEvents, TaskFailedFromTheSimsInPlaceRestartsTriggersItsPolicy) {
  PodBehaviour restarting = runsForever(1000);
  restarting.restartsAtMs = {1000, 2000, 3000};
  script("job-worker-0", {restarting});
  Job job = makeJob("job", {{"worker", 2, {onEvent("TaskFailed", "AbortJob")}}});  // task maxRetry 3
  run(job);
  runTo(3000);
  for (const auto& r : take()) EXPECT_NE(r.request.event, "TaskFailed") << r.at;  // 1, 2 restarts
  runTo(4000);
  auto failed = takeEvent("TaskFailed");
  ASSERT_EQ(failed.size(), 1u);
  EXPECT_EQ(failed[0].request.podName, "job-worker-0");
  EXPECT_EQ(failed[0].action, "AbortJob");
  EXPECT_EQ(failed[0].phase, JobPhase::Aborting);
}

TEST_F(PodEvents, OutOfSyncAnnotationOverridesEveryEvent) {
  Job job = makeJob("job", {{"worker", 2}});
  job.spec.policies = {onEvent("PodFailed", "AbortJob")};
  run(job);
  auto lines = update(pod("job-worker-0"), [](PodState& s) {
    s.status.phase = PodPhase::Failed;
    s.status.containerStatuses[0].terminated = ContainerStateTerminated{3, 0, "Error", ""};
    markOutOfSync(s);
  });
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines[0].request.event, "OutOfSync");
  EXPECT_EQ(lines[0].action, "SyncJob");
  EXPECT_EQ(lines[0].phase, JobPhase::Running);  // no policy ran
  EXPECT_EQ(lines[0].failed, 1);                 // the marked pod is counted by its phase ...
  EXPECT_EQ(lines[0].terminating, 1);            // ... and deleted
}

// volcano#4828, fixed by #4829: a pod whose deletion has begun stays cached and counts Terminating
// until its delete event, so an aborted job stays Aborting while a pod is still shutting down.
TEST_F(PodEvents, ATerminatingPodStaysCachedUntilItsDeleteSoAbortingWaitsForIt) {
  run(makeJob("job", {{"worker", 2}}));
  const PodState before = pod("job-worker-0");
  PodState terminating = before;
  auto lines = update(before, [&](PodState& s) {
    s.deletionTimestamp = clock.now();
    terminating = s;
  });
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].request.event, "OutOfSync");  // not PodEvicted: the pod is not gone yet
  EXPECT_EQ(lines[0].phase, JobPhase::Running);
  EXPECT_EQ(std::vector<int32_t>({lines[0].running, lines[0].terminating}), std::vector<int32_t>({1, 1}));

  auto abort = issue("AbortJob");
  EXPECT_EQ(abort.phase, JobPhase::Aborting);
  settle();
  take();
  EXPECT_EQ(phase(), JobPhase::Aborting);  // worker-1 is gone, worker-0 still terminating
  EXPECT_EQ(status().terminating, 1);

  ClusterEvent gone;
  gone.type = ClusterEvent::Type::PodDeleted;
  gone.pod = terminating;
  controller->listener().onClusterEvents(std::span(&gone, 1));
  settle();
  auto evicted = takeEvent("PodEvicted");
  ASSERT_EQ(evicted.size(), 1u);
  EXPECT_EQ(evicted[0].request.podName, "job-worker-0");
  EXPECT_EQ(phase(), JobPhase::Aborted);
  EXPECT_EQ(status().terminating, 0);
}

// A pod first seen already terminating (say, on a relist after the cache lost it) is cached as
// Terminating.
TEST_F(PodEvents, APodAddedWhileTerminatingIsCachedAsTerminating) {
  run(makeJob("job", {{"worker", 2}}));
  PodState late = pod("job-worker-1");
  late.deletionTimestamp = clock.now();
  ClusterEvent ev;
  ev.type = ClusterEvent::Type::PodDeleted;  // out of the cache first (the sim keeps the pod)
  ev.pod = late;
  controller->listener().onClusterEvents(std::span(&ev, 1));
  settle();
  take();
  ev.type = ClusterEvent::Type::PodAdded;
  ev.pod = late;  // the controller takes what an event holds
  controller->listener().onClusterEvents(std::span(&ev, 1));
  settle();
  auto lines = take();
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines[0].request.event, "PodPending");
  EXPECT_EQ(std::vector<int32_t>({lines[0].running, lines[0].terminating}), std::vector<int32_t>({1, 1}));
}

TEST_F(PodEvents, SameResourceVersionIsNoRequest) {
  run(makeJob("job", {{"worker", 1}}));
  PodState p = pod("job-worker-0");
  PodState after = p;
  after.status.phase = PodPhase::Failed;
  ClusterEvent ev;
  ev.type = ClusterEvent::Type::PodUpdated;
  ev.pod = after;
  ev.oldPodPhase = PodPhase::Running;
  ev.oldResourceVersion = p.resourceVersion;  // unchanged
  controller->listener().onClusterEvents(std::span(&ev, 1));
  settle();
  EXPECT_TRUE(take().empty());
}

TEST_F(PodEvents, DeletedPodIsPodEvictedUnlessMarkedOrUncached) {
  Job job = makeJob("job", {{"worker", 2}});
  run(job);
  sim->evictPod(ns, "job-worker-0");  // cached, unmarked
  settle();
  auto evicted = takeEvent("PodEvicted");
  ASSERT_EQ(evicted.size(), 1u);
  EXPECT_EQ(evicted[0].request.podName, "job-worker-0");
  EXPECT_FALSE(evicted[0].request.podUid.empty());
  EXPECT_EQ(evicted[0].request.taskName, "worker");

  // Marked out-of-sync: OutOfSync.
  PodState marked = pod("job-worker-1");
  markOutOfSync(marked);
  marked.deletionTimestamp = clock.now();
  ClusterEvent del;
  del.type = ClusterEvent::Type::PodDeleted;
  del.pod = marked;
  controller->listener().onClusterEvents(std::span(&del, 1));
  settle();
  bool sawMarked = false;
  for (const auto& r : take())
    if (r.request.podName == "job-worker-1" && r.request.podUid == marked.uid()) {
      EXPECT_EQ(r.request.event, "OutOfSync");
      sawMarked = true;
    }
  EXPECT_TRUE(sawMarked);

  // Not in the cache any more (deleted twice): OutOfSync.
  PodState gone = marked;
  auto object = std::make_shared<Pod>(*gone.object);
  object->metadata.annotations.erase(std::string(keys::OutOfSyncMarker));
  gone.object = std::move(object);
  del.pod = gone;
  controller->listener().onClusterEvents(std::span(&del, 1));
  settle();
  bool sawUncached = false;
  for (const auto& r : take())
    if (r.request.podName == "job-worker-1" && r.request.podUid == marked.uid()) {
      EXPECT_EQ(r.request.event, "OutOfSync");
      sawUncached = true;
    }
  EXPECT_TRUE(sawUncached);
}

TEST_F(PodEvents, AddedPodIsPodPendingOrOutOfSyncWhenMarkedAndCarriesVersionAndPartition) {
  Job job = makeJob("job", {{"worker", 4}});
  job.spec.tasks[0].partitionPolicy = PartitionPolicy{2, 2, std::nullopt, 0};
  submit(job);
  auto added = takeEvent("PodPending");
  ASSERT_EQ(added.size(), 4u);
  for (const auto& r : added) {
    EXPECT_EQ(r.request.jobUid, controller->getJob(ns, "job")->metadata.uid);
    EXPECT_EQ(r.request.jobVersion, 0);
    EXPECT_EQ(r.request.taskName, "worker");
    EXPECT_EQ(r.request.partitionId, r.request.podName == "job-worker-2" || r.request.podName == "job-worker-3" ? "1" : "0");
  }
  PodState p = pod("job-worker-0");
  markOutOfSync(p);
  auto object = std::make_shared<Pod>(*p.object);
  object->metadata.name = "job-worker-9";
  object->metadata.uid = "uid-job-worker-9";
  p.object = std::move(object);
  ClusterEvent ev;
  ev.type = ClusterEvent::Type::PodAdded;
  ev.pod = p;
  controller->listener().onClusterEvents(std::span(&ev, 1));
  settle();
  bool seen = false;
  for (const auto& r : take())
    if (r.request.podName == "job-worker-9") {
      EXPECT_EQ(r.request.event, "OutOfSync");
      seen = true;
    }
  EXPECT_TRUE(seen);
}

// isControlledBy: the pod's first controller reference must be a Volcano Job (apiVersion and kind);
// a pod owned by another kind of Job, or whose Volcano owner is only a second controller, is not
// the job's, whatever its annotations say.
TEST_F(PodEvents, OnlyAPodWhoseFirstControllerIsAVolcanoJobMakesARequest) {
  submit(makeJob("job", {{"worker", 1}}));
  take();
  const PodState p = pod("job-worker-0");
  auto requestsFor = [&](const std::function<void(Pod&)>& change) {
    auto object = std::make_shared<Pod>(*p.object);
    change(*object);
    PodState s = p;
    s.object = std::move(object);
    return update(p, [&](PodState& after) {
      after.object = s.object;
      after.status.phase = PodPhase::Failed;
    });
  };
  auto batchJob = requestsFor([](Pod& pod) { pod.metadata.ownerReferences[0].apiVersion = "batch/v1"; });
  EXPECT_TRUE(batchJob.empty()) << batchJob.size();
  auto second = requestsFor([](Pod& pod) {
    OwnerReference other = pod.metadata.ownerReferences[0];
    other.apiVersion = "apps/v1";
    other.kind = "ReplicaSet";
    pod.metadata.ownerReferences.insert(pod.metadata.ownerReferences.begin(), other);
  });
  EXPECT_TRUE(second.empty()) << second.size();
  auto volcano = requestsFor([](Pod&) {});
  ASSERT_FALSE(volcano.empty());
  EXPECT_EQ(volcano[0].request.event, "PodFailed");
}

TEST_F(PodEvents, PodGroupPhaseChangeIsEmptyEventOrUnknownForTheOwnerJob) {
  Job job = makeJob("job", {{"worker", 1}});
  job.spec.policies = {onEvent("*", "AbortJob")};
  run(job);
  PodGroup pg = *sim->getPodGroup(ns, "job-" + controller->getJob(ns, "job")->metadata.uid);
  auto send = [&](const std::string& from, const std::string& to) {
    sendPodGroupPhase(pg, from, to);
    return take();  // the PodGroup's request first, then what its handling caused
  };
  EXPECT_TRUE(send("Running", "Running").empty());  // no phase change, no request
  auto inqueue = send("Running", "Inqueue");
  ASSERT_EQ(inqueue.size(), 1u);
  EXPECT_EQ(inqueue[0].request.event, "");  // `*` never matches the empty event
  EXPECT_EQ(inqueue[0].request.jobName, "job");  // from the owner reference, not the PG name
  EXPECT_EQ(inqueue[0].action, "SyncJob");
  auto unknown = send("Inqueue", "Unknown");
  ASSERT_FALSE(unknown.empty());
  EXPECT_EQ(unknown[0].request.event, "Unknown");
  EXPECT_EQ(unknown[0].action, "AbortJob");
}

// syncJob reads the PodGroup as Volcano reads its lister: from the PodGroup events the controller
// has seen (and its own create), not from the cluster. A gang the cluster cannot place stays
// Pending there, yet an event saying Inqueue makes the next sync create the pods.
class PodGroupLister : public ControllerTest {
 protected:
  // Submits a one-pod job the one 100m node cannot place: its PodGroup stays Pending.
  PodGroup submitUnplaceable() {
    cluster.nodes = 1;
    cluster.cpu = Quantity::fromMilli(100);
    start();
    Job job = makeJob("job", {{"worker", 1}});
    job.spec.tasks[0].template_.spec.containers[0].resources.requests["cpu"] = Quantity::fromMilli(500);
    submit(job);
    runTo(1000);
    return *sim->getPodGroup(ns, "job-" + controller->getJob(ns, "job")->metadata.uid);
  }
};

TEST_F(PodGroupLister, SyncReadsThePodGroupPhaseOfItsLastEvent) {
  const PodGroup pg = submitUnplaceable();
  ASSERT_EQ(pg.status.phase, "Pending");
  EXPECT_FALSE(sim->getPod(ns, "job-worker-0"));
  sendPodGroupPhase(pg, "Pending", "Inqueue");
  EXPECT_EQ(sim->podGroupPhase(ns, pg.metadata.name), std::optional<std::string>("Pending"));
  EXPECT_TRUE(sim->getPod(ns, "job-worker-0"));
}

// A restart deletes the PodGroup and creates one of the same name; an event of the deleted one can
// still be in flight. A lister would end at the new one, so the event must not make the sync
// create pods for a PodGroup the scheduler has not admitted.
TEST_F(PodGroupLister, AnEventOfADeletedPodGroupOfTheSameNameIsNotTheNewOnesPhase) {
  const PodGroup pg = submitUnplaceable();
  ASSERT_EQ(pg.status.phase, "Pending");
  ASSERT_EQ(pg.metadata.uid.size(), 36u);  // the controller's own, kept by the cluster
  PodGroup deleted = pg;
  deleted.metadata.uid = "uid-of-the-deleted-podgroup";
  sendPodGroupPhase(deleted, "Running", "Inqueue");
  EXPECT_FALSE(sim->getPod(ns, "job-worker-0"));
  sendPodGroupPhase(pg, "Running", "Inqueue");
  EXPECT_TRUE(sim->getPod(ns, "job-worker-0"));
}

// A PodGroup request carries no job version (0): once a full kill bumped Version, rule 4 (stale
// version) turns every later `Unknown` into SyncJob before the policies are consulted.
TEST_F(PodEvents, UnknownAfterAFullKillIsStaleAndOnlySyncs) {
  Job job = makeJob("job", {{"worker", 1}});
  job.spec.policies = {onEvent("Unknown", "RestartJob")};
  run(job);
  command("RestartJob");
  runTo(3000);
  ASSERT_EQ(phase(), JobPhase::Running);
  ASSERT_EQ(status().version, 1);
  take();
  sendPodGroupPhase(*sim->getPodGroup(ns, "job-" + controller->getJob(ns, "job")->metadata.uid), "Running", "Unknown");
  auto unknown = takeEvent("Unknown");
  ASSERT_EQ(unknown.size(), 1u);
  EXPECT_EQ(unknown[0].request.jobVersion, 0);
  EXPECT_EQ(unknown[0].action, "SyncJob");
  EXPECT_EQ(unknown[0].retryCount, 1);
}

TEST_F(PodEvents, CommandIsCommandIssuedWithItsAction) {
  run(makeJob("job", {{"worker", 1}}));
  command("RestartPod", "", "job-worker-0");
  auto lines = takeEvent("CommandIssued");
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0].request.action, "RestartPod");
  EXPECT_EQ(lines[0].action, "RestartPod");
  EXPECT_EQ(lines[0].request.taskName, "worker");  // our extension: a RestartPod command takes the pod's task
  EXPECT_EQ(lines[0].delayMs, 0);
}

}  // namespace
}  // namespace jobhost::testing
