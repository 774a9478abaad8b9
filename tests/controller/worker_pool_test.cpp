// WorkerPool: FNV-1 routing (Go's hash/fnv New32), client-go dedup semantics, backoff on the
// virtual clock, idle tracking and rounds.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>

#include "host/controller/virtual_clock.h"
#include "host/controller/worker_pool.h"

namespace jobhost {
namespace {

TEST(Fnv1, MatchesGoHashFnvNew32) {
  EXPECT_EQ(fnv1Hash32(""), 0x811c9dc5u);
  EXPECT_EQ(fnv1Hash32("a"), 0x050c5d7eu);
  EXPECT_EQ(fnv1Hash32("foobar"), 0x31f0b262u);
}

Request named(const std::string& job, const std::string& event = "OutOfSync") {
  Request r;
  r.namespace_ = "ns";
  r.jobName = job;
  r.event = event;
  return r;
}

TEST(WorkerPool, IdenticalQueuedRequestsAreProcessedOnce) {
  VirtualClock clock;
  WorkerPool pool(1, clock);
  std::mutex m;
  std::vector<std::string> seen;
  std::atomic<bool> release{false};
  pool.start([&](size_t, const Request& r) {
    while (r.jobName == "blocker" && !release) std::this_thread::yield();
    std::lock_guard l(m);
    seen.push_back(r.jobName + "/" + r.event);
  });
  pool.add(named("blocker"));
  pool.add(named("a"));
  pool.add(named("a"));
  pool.add(named("a", "PodPending"));
  release = true;
  pool.waitForIdle();
  EXPECT_EQ(seen, std::vector<std::string>({"blocker/OutOfSync", "a/OutOfSync", "a/PodPending"}));
  pool.stop();
}

TEST(WorkerPool, BackoffDoublesFromFiveMsAndForgetResets) {
  VirtualClock clock;
  WorkerPool pool(2, clock);
  std::atomic<int> runs{0};
  pool.start([&](size_t, const Request&) { ++runs; });
  Request r = named("a");
  // Each failure after the previous retry ran: 5, 10, 20, 40 ms.
  TimeMs at = 0;
  int expected = 0;
  for (int64_t delay : {5, 10, 20, 40}) {
    pool.addRateLimited(r);
    clock.advanceTo(at + delay - 1);
    pool.waitForIdle();
    EXPECT_EQ(runs.load(), expected) << delay;
    at += delay;
    clock.advanceTo(at);
    pool.waitForIdle();
    EXPECT_EQ(runs.load(), ++expected) << delay;
  }
  EXPECT_EQ(runs.load(), 4);
  EXPECT_EQ(pool.numRequeues(r), 4);
  pool.forget(r);
  EXPECT_EQ(pool.numRequeues(r), 0);
  pool.stop();
}

TEST(WorkerPool, BackoffIsCappedAt180Seconds) {
  VirtualClock clock;
  WorkerPool pool(1, clock);
  std::atomic<int> runs{0};
  pool.start([&](size_t, const Request&) { ++runs; });
  Request r = named("a");
  for (int i = 0; i < 16; ++i) pool.addRateLimited(r);  // one waiting entry, ready at 5
  clock.advanceTo(5);
  pool.waitForIdle();
  EXPECT_EQ(runs.load(), 1);
  pool.addRateLimited(r);  // 5 ms << 16 = 327.68 s, capped
  clock.advanceTo(180'004);
  pool.waitForIdle();
  EXPECT_EQ(runs.load(), 1);
  clock.advanceTo(180'005);
  pool.waitForIdle();
  EXPECT_EQ(runs.load(), 2);
  EXPECT_FALSE(clock.nextDue().has_value());
  pool.stop();
}

// Rounds: one request per job per round, each job's requests in arrival order. Job "a" has many
// requests waiting at once (a large job's pod events), which also runs the deferred list's compaction.
TEST(WorkerPool, RoundsTakeEachJobsRequestsOnePerRoundInArrivalOrder) {
  VirtualClock clock;
  WorkerPool pool(1, clock);
  std::mutex m;
  std::condition_variable done;
  std::vector<std::string> seen;
  std::atomic<bool> release{false};
  constexpr int kA = 40;
  pool.useRounds([](size_t) { return false; });
  pool.openRounds(true);
  pool.start([&](size_t, const Request& r) {
    while (r.jobName == "blocker" && !release) std::this_thread::yield();
    std::lock_guard l(m);
    seen.push_back(r.jobName + "/" + r.event);
    done.notify_all();
  });
  pool.add(named("blocker"));
  for (int i = 0; i < kA; ++i) pool.add(named("a", "E" + std::to_string(i)));
  for (int i = 0; i < 3; ++i) pool.add(named("b", "E" + std::to_string(i)));
  release = true;
  std::vector<std::string> expected{"blocker/OutOfSync"};
  for (int i = 0; i < kA; ++i) {
    expected.push_back("a/E" + std::to_string(i));
    if (i < 3) expected.push_back("b/E" + std::to_string(i));
  }
  std::unique_lock l(m);
  // The bound only keeps a broken pool from hanging the suite; a correct one finishes at once.
  done.wait_for(l, std::chrono::seconds(30), [&] { return seen.size() >= expected.size(); });
  EXPECT_EQ(seen, expected);
  l.unlock();
  pool.stop();
}

TEST(WorkerPool, OneJobAlwaysOnTheSameWorker) {
  VirtualClock clock;
  WorkerPool pool(4, clock);
  EXPECT_EQ(pool.workerOf("ns/job"), fnv1Hash32("ns/job") % 4);
}

}  // namespace
}  // namespace jobhost
