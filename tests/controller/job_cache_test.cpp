// JobEntry's incremental counters equal a full recount after any sequence of pod changes.
#include <gtest/gtest.h>

#include <random>

#include "controller_fixture.h"
#include "host/controller/job_cache.h"

namespace jobhost::testing {
namespace {

void expectSameCounters(const JobEntry& a, const JobEntry& b, size_t tasks) {
  EXPECT_EQ(a.allByPhase(), b.allByPhase());
  EXPECT_EQ(a.allTerminating(), b.allTerminating());
  for (size_t i = 0; i < tasks; ++i) {
    const TaskCounts& x = a.taskCounts(i);
    const TaskCounts& y = b.taskCounts(i);
    EXPECT_EQ(x.byPhase, y.byPhase);
    EXPECT_EQ(x.terminating, y.terminating);
    EXPECT_EQ(x.ready, y.ready);
    EXPECT_EQ(x.missing, y.missing);
    EXPECT_EQ(x.outOfSync, y.outOfSync);
    EXPECT_EQ(x.unexpected, y.unexpected);
  }
  for (const char* t : {"a", "b", "zz"}) {
    EXPECT_EQ(a.taskCompleted(t), b.taskCompleted(t));
    EXPECT_EQ(a.taskFailed(t), b.taskFailed(t));
  }
}

TEST(JobCache, IncrementalCountersMatchARecount) {
  Job job = makeJob("j", {{"a", 4}, {"b", 3}});
  job.spec.tasks[1].partitionPolicy = PartitionPolicy{3, 1, std::nullopt, 0};
  JobEntry live("default/j");
  live.setJob(job);
  std::mt19937 rng(7);
  const char* tasks[] = {"a", "b", "zz"};
  for (int step = 0; step < 2000; ++step) {
    std::string task = tasks[rng() % 3];
    std::string name = "j-" + task + "-" + std::to_string(rng() % 6);
    if (rng() % 7 == 0) name = "stray-" + std::to_string(rng() % 3);
    PodRecord r;
    r.uid = name + std::to_string(step);
    r.task = task;
    r.phase = static_cast<PodPhase>(rng() % 5);
    r.terminating = rng() % 5 == 0;
    r.outOfSync = rng() % 4 == 0;
    r.allReady = rng() % 2 == 0;
    r.restarts = static_cast<int32_t>(rng() % 3);
    r.hasPartition = task == "b";
    r.partition = std::to_string(rng() % 3);
    switch (rng() % 3) {
      case 0: live.addPod(name, r); break;
      case 1: live.updatePod(name, r); break;
      case 2: live.removePod(name); break;
    }
    if (step % 97 == 0) {
      job.spec.tasks[0].replicas = static_cast<int32_t>(rng() % 6);
      live.setJob(job);
    }
    JobEntry recount("default/j");
    recount.setJob(job);
    for (const auto& [n, rec] : live.pods()) recount.addPod(n, rec);
    expectSameCounters(live, recount, job.spec.tasks.size());
    const auto* p = live.partitionPods("b", "1");
    const auto* q = recount.partitionPods("b", "1");
    EXPECT_EQ(p ? *p : std::set<std::string>{}, q ? *q : std::set<std::string>{});
    if (::testing::Test::HasFailure()) break;
  }
}

}  // namespace
}  // namespace jobhost::testing
