// Job volumes (spec §6.6: generated claim names, PVCs, missing named claims, a failed sync's names)
// and job updates: scale-down through updateJob (§5.2 step 7), the PodGroup spec rewrite (§6.2/§6.3)
// and a legacy PodGroup's replacement.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>

#include "controller_fixture.h"

namespace jobhost::testing {
namespace {

class CountingHooks : public NoPluginJobPlugins {
 public:
  Status onJobAdd(Job&, ResourceClient&) override { return ++adds, Status::ok(); }
  Status onJobUpdate(Job&, ResourceClient&) override { return ++updates, Status::ok(); }
  Status onJobDelete(Job&, ResourceClient&) override { return ++deletes, Status::ok(); }
  std::atomic<int> adds{0}, updates{0}, deletes{0};
};

class JobUpdate : public ControllerTest {
 protected:
  std::string podGroupName() { return jobName + "-" + controller->getJob(ns, jobName)->metadata.uid; }
};

bool isGeneratedClaim(const std::string& name) {
  const std::string prefix = "job-pvc-";
  if (name.size() != prefix.size() + 12 || name.compare(0, prefix.size(), prefix) != 0) return false;
  return std::all_of(name.begin() + static_cast<std::ptrdiff_t>(prefix.size()), name.end(),
                     [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z'); });
}

TEST_F(JobUpdate, VolumeWithoutClaimNameGetsAGeneratedNameAndItsPvc) {
  defaults = runsForever(1000);
  start();
  sim->addPvc(ns, "shared");
  Job job = makeJob("job", {{"worker", 2}});
  job.spec.volumes = {JobVolume{"/data", "", std::string(R"({"resources":{"requests":{"storage":"1Gi"}}})")},
                      JobVolume{"/shared", "shared", std::nullopt}};
  submit(job);

  Job cached = *controller->getJob(ns, "job");
  const std::string data = cached.spec.volumes[0].volumeClaimName;
  EXPECT_TRUE(isGeneratedClaim(data)) << data;
  EXPECT_EQ(cached.spec.volumes[1].volumeClaimName, "shared");
  EXPECT_TRUE(sim->pvcExists(ns, data));
  const std::map<std::string, std::string> controlled = {{"volume-pvc-" + data, data},
                                                         {"volume-pvc-shared", "shared"}};
  EXPECT_EQ(cached.status.controlledResources, controlled);

  auto pod = sim->getPod(ns, "job-worker-1");
  ASSERT_TRUE(pod);
  std::vector<std::string> claims, mounts;
  for (const auto& v : pod->object->spec.volumes)
    if (v.persistentVolumeClaim) claims.push_back(v.persistentVolumeClaim->claimName);
  for (const auto& m : pod->object->spec.containers[0].volumeMounts) mounts.push_back(m.mountPath);
  EXPECT_EQ(claims, (std::vector<std::string>{data, "shared"}));
  EXPECT_EQ(mounts, (std::vector<std::string>{"/data", "/shared"}));

  runTo(1000);
  EXPECT_EQ(phase(), JobPhase::Running);
  EXPECT_EQ(status().running, 2);
  EXPECT_EQ(controller->getJob(ns, "job")->spec.volumes[0].volumeClaimName, data);  // named once
  ASSERT_TRUE(controller->deleteJob(ns, "job").isOk());
  EXPECT_FALSE(sim->pvcExists(ns, data));  // owned by the job: collected with it
  EXPECT_TRUE(sim->pvcExists(ns, "shared"));
}

TEST_F(JobUpdate, MissingNamedClaimKeepsTheJobPendingUntilItExists) {
  defaults = runsForever(1000);
  start();
  Job job = makeJob("job", {{"worker", 2}});
  job.spec.volumes = {JobVolume{"/data", "data", std::nullopt}};
  submit(job);
  // The OutOfSync of the add, then the one echoed by the Pending status write: both fail.
  auto lines = take();
  ASSERT_EQ(lines.size(), 2u);
  for (const auto& line : lines) {
    EXPECT_EQ(line.request.event, "OutOfSync");
    EXPECT_EQ(line.at, 0);
    EXPECT_EQ(line.error,
              "PVCError: pvc data is not found, the job will be in the Pending state until the PVC is created");
    EXPECT_TRUE(line.requeued);
    EXPECT_EQ(line.phase, JobPhase::Pending);
  }
  EXPECT_EQ(sim->podCount(), 0u);
  EXPECT_TRUE(status().controlledResources.empty());

  sim->addPvc(ns, "data");
  runTo(5);  // the first backoff (5 ms) retries and succeeds
  lines = take();
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines[0].at, 5);
  EXPECT_TRUE(lines[0].error.empty());
  EXPECT_EQ(sim->podCount(), 2u);
  EXPECT_EQ(status().controlledResources.at("volume-pvc-data"), "data");
  runTo(2000);
  EXPECT_EQ(phase(), JobPhase::Running);
}

// A sync that fails on a later volume keeps none of the claim names it generated (Volcano names them
// on its clone of the job): each retry names and creates a fresh claim, and the one of the sync that
// succeeds is the one the job keeps.
TEST_F(JobUpdate, AFailedSyncKeepsNoGeneratedClaimName) {
  defaults = runsForever(1000);
  start();
  Job job = makeJob("job", {{"worker", 1}});
  job.spec.volumes = {JobVolume{"/scratch", "", std::string(R"({"resources":{"requests":{"storage":"1Gi"}}})")},
                      JobVolume{"/data", "data", std::nullopt}};
  submit(job);
  ASSERT_EQ(take().size(), 2u);  // both fail on the missing "data"
  EXPECT_EQ(controller->getJob(ns, "job")->spec.volumes[0].volumeClaimName, "");
  EXPECT_TRUE(status().controlledResources.empty());

  sim->addPvc(ns, "data");
  runTo(5);
  const std::string scratch = controller->getJob(ns, "job")->spec.volumes[0].volumeClaimName;
  EXPECT_TRUE(isGeneratedClaim(scratch)) << scratch;
  EXPECT_TRUE(sim->pvcExists(ns, scratch));
  EXPECT_EQ(status().controlledResources.at("volume-pvc-" + scratch), scratch);
  EXPECT_EQ(sim->podCount(), 1u);
}

// A job found with a legacy PodGroup (named after the job alone) gets a <job>-<uid> one once a full
// kill has deleted the legacy one: lookup falls back to the old name, creation never does.
TEST_F(JobUpdate, AKilledLegacyPodGroupIsRecreatedUnderTheNewName) {
  defaults = runsForever(1000);
  start();
  PodGroup legacy;
  legacy.metadata.name = "job";
  legacy.metadata.namespace_ = ns;
  legacy.spec.minMember = 2;
  ASSERT_TRUE(sim->createPodGroup(legacy).ok());
  submit(makeJob("job", {{"worker", 2}}));
  runTo(1000);
  EXPECT_FALSE(sim->getPodGroup(ns, podGroupName()));  // the legacy one stands for it
  command("RestartJob");
  runTo(3000);
  EXPECT_FALSE(sim->getPodGroup(ns, "job"));
  EXPECT_TRUE(sim->getPodGroup(ns, podGroupName()));
}

TEST_F(JobUpdate, ScaleDownDeletesPodsAboveTheNewReplicasAndRunsOnJobUpdate) {
  CountingHooks hooks;
  plugins = &hooks;
  defaults = runsForever(1000);
  start();
  submit(makeJob("job", {{"worker", 4}}));
  runTo(1000);
  ASSERT_EQ(status().running, 4);
  ASSERT_EQ(phase(), JobPhase::Running);
  const int updatesBefore = hooks.updates.load();
  const int addsBefore = hooks.adds.load();
  take();

  Job smaller = *controller->getJob(ns, "job");
  smaller.spec.tasks[0].replicas = 2;
  smaller.spec.minAvailable = 2;
  ASSERT_TRUE(controller->updateJob(smaller).isOk());
  settle();

  auto lines = take();
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines[0].request.event, "OutOfSync");
  EXPECT_EQ(lines[0].action, "SyncJob");
  EXPECT_EQ(lines[0].phase, JobPhase::Running);
  EXPECT_EQ(lines[0].running, 2);      // only expected pods are counted
  EXPECT_EQ(lines[0].terminating, 2);  // worker-2 and worker-3 deleted
  std::vector<std::string> evicted;
  for (const auto& r : lines)
    if (r.request.event == "PodEvicted") {
      evicted.push_back(r.request.podName);
      EXPECT_EQ(r.action, "SyncJob");
    }
  std::sort(evicted.begin(), evicted.end());
  EXPECT_EQ(evicted, (std::vector<std::string>{"job-worker-2", "job-worker-3"}));

  EXPECT_EQ(sim->podNames(), (std::vector<std::string>{"default/job-worker-0", "default/job-worker-1"}));
  JobStatus s = status();
  EXPECT_EQ(s.state.phase, JobPhase::Running);
  EXPECT_EQ(s.running, 2);
  EXPECT_EQ(s.terminating, 0);
  EXPECT_EQ(s.pending, 0);
  EXPECT_EQ(s.minAvailable, 2);
  EXPECT_EQ(s.version, 0);
  EXPECT_EQ(s.retryCount, 0);
  EXPECT_EQ(s.taskStatusCount.at("worker").phase.at(PodPhase::Running), 2);
  EXPECT_EQ(hooks.adds.load(), addsBefore);  // Running: initOnJobUpdate, never OnJobAdd
  EXPECT_EQ(hooks.updates.load() - updatesBefore, static_cast<int>(lines.size()));  // one per sync
  EXPECT_EQ(hooks.deletes.load(), 0);
  EXPECT_EQ(controller->cachedPodCount(ns, "job"), 2u);
  EXPECT_EQ(sim->getPodGroup(ns, podGroupName())->spec.minMember, 2);
}

TEST_F(JobUpdate, SpecUpdateRewritesThePodGroupMinMemberAndMinResources) {
  defaults = runsForever(1000);
  start();
  Job job = makeJob("job", {{"ps", 1}, {"worker", 2}});
  for (auto& task : job.spec.tasks)
    task.template_.spec.containers[0].resources.requests["cpu"] = Quantity::fromMilli(500);
  submit(job);
  runTo(1000);
  auto pg = sim->getPodGroup(ns, podGroupName());
  ASSERT_TRUE(pg);
  EXPECT_EQ(pg->spec.minMember, 3);
  EXPECT_EQ(pg->spec.minResources->at("cpu").milliValue(), 1500);
  EXPECT_EQ(pg->spec.minResources->at("pods").milliValue(), 3000);

  Job bigger = *controller->getJob(ns, "job");
  bigger.spec.tasks[1].replicas = 4;
  bigger.spec.tasks[1].minAvailable = 3;
  bigger.spec.minAvailable = 4;
  ASSERT_TRUE(controller->updateJob(bigger).isOk());
  settle();

  pg = sim->getPodGroup(ns, podGroupName());
  ASSERT_TRUE(pg);
  EXPECT_EQ(pg->spec.minMember, 4);
  EXPECT_EQ(pg->spec.minTaskMember, (std::map<std::string, int32_t>{{"ps", 1}, {"worker", 3}}));
  EXPECT_EQ(pg->spec.minResources->at("cpu").milliValue(), 2000);
  EXPECT_EQ(pg->spec.minResources->at("requests.cpu").milliValue(), 2000);
  EXPECT_EQ(pg->spec.minResources->at("pods").milliValue(), 4000);
  EXPECT_EQ(pg->status.phase, "Running");  // the spec changed, the phase did not
  EXPECT_TRUE(sim->getPod(ns, "job-worker-3"));
  runTo(2000);
  EXPECT_EQ(status().running, 5);
  EXPECT_EQ(status().minAvailable, 4);
}

}  // namespace
}  // namespace jobhost::testing
