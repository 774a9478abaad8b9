// WorkerPool: N Asio worker queues (client-go workqueue semantics: dedup while queued, requeue
// after processing when re-added, per-request exponential backoff) plus a command queue, with
// job-to-worker routing by FNV-1 32-bit and idle tracking for deterministic tests.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <vector>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/unordered/unordered_flat_map.hpp>
#include <boost/unordered/unordered_flat_set.hpp>

#include "host/controller/clock.h"
#include "host/controller/request.h"
#include "jobhost/status.h"

namespace jobhost {

class WorkerPool {
 public:
  /// Handles one request on behalf of worker `worker`.
  using Processor = std::function<void(size_t worker, const Request&)>;
  /// Runs a batch of processing, `work(arg)`; an error means the batch was abandoned inside a
  /// plugin call (see JobPlugins::runAbandonable) while processing the worker's current request.
  using BatchRunner = std::function<Status(void (*work)(void*), void* arg)>;
  /// Finishes the request worker `worker` was processing when its batch was abandoned.
  using Abandoned = std::function<void(size_t worker, const std::string& why)>;

  /// Backoff of AddRateLimited: 5 ms doubling per failure, at most 180 s.
  static constexpr int64_t kBaseBackoffMs = 5;
  static constexpr int64_t kMaxBackoffMs = 180'000;

  WorkerPool(size_t workers, Clock& clock);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  /// Starts one thread per worker plus the command thread; `processor` handles each request, in
  /// batches run by `runner` (inline when empty); `abandoned` finishes an abandoned one.
  void start(Processor processor, BatchRunner runner = {}, Abandoned abandoned = {});
  /// Stops every thread; queued work is dropped.
  void stop();

  size_t size() const { return workers_.size(); }
  size_t workerOf(std::string_view jobKey) const { return fnv1Hash32(jobKey) % workers_.size(); }

  /// Queues a copy of a request unless an identical one is already queued (client-go's dirty
  /// set). Queued requests live in slots the worker reuses, so in steady state this allocates nothing.
  void add(const Request& req) { add(workerOf(req), req); }
  /// add() of a request that belongs to worker `worker`.
  void add(size_t worker, const Request& req);
  /// The request worker `worker`'s event handling builds next, in place in a queue slot so that
  /// adding it copies nothing: set every field (it holds an old request's), then addDraft(). Only
  /// the thread handling that worker's events may use it.
  Request& draft(size_t worker);
  /// add() of worker `worker`'s draft; a duplicate stays the draft, to be overwritten.
  void addDraft(size_t worker);
  /// AddRateLimited: counts a failure and adds the request after its backoff. As client-go's
  /// delaying queue, a request already waiting keeps the earlier of the two ready times.
  void addRateLimited(const Request& req);
  int numRequeues(const Request& req);
  void forget(const Request& req) { forget(workerOf(req), req); }
  /// forget() of a request that belongs to worker `worker`.
  void forget(size_t worker, const Request& req);

  /// Runs `task` on the worker that owns `jobKey`, serialised with that job's requests.
  void post(std::string_view jobKey, std::function<void()> task) { post(workerOf(jobKey), std::move(task)); }
  /// Runs `task` on worker `worker` (< size()).
  void post(size_t worker, std::function<void()> task);
  /// Runs `task` on the command queue's thread.
  void postCommand(std::function<void()> task);

  /// Rounds (the sim driver's deterministic mode): in a round each job has at most one request
  /// processed; its further requests wait, still deduplicated, for the worker's next round. When a
  /// worker's round has run out of requests it calls `idle(worker)` (on the thread running its
  /// batch: its own, or its guard thread when plugin calls have deadlines), which queues what the
  /// requests caused (true) or finds nothing (false); then the next round starts, until a round has
  /// nothing to do. Set before start().
  using IdleHook = std::function<bool(size_t worker)>;
  void useRounds(IdleHook idle);
  /// Opens (or closes) the workers' rounds: only while open does a worker whose round ran out of
  /// requests call its idle hook and start its next round; while closed the rest waits.
  void openRounds(bool open) { roundsOpen_ = open; }
  /// Has every worker look for work through its idle hook (rounds open) when it has requests
  /// waiting for a round or `pending(worker)` says its hook will find some.
  void kick(const std::function<bool(size_t worker)>& pending);

  /// Blocks until no runnable request is queued or running and no posted task is pending.
  void waitForIdle();
  bool idle() const { return pending_.load() == 0; }

 private:
  /// A queued request, stored once in a slot of its worker and referenced by the queue (or the
  /// deferred list, or `processing`) and the dirty set, with its hashes computed once.
  /// A slot returns to its worker's free list after processing; reused, its strings keep their
  /// storage.
  struct Queued {
    void set(const Request& r, size_t requestHash);
    void stamp(size_t requestHash);  // the hashes of `req` as it is
    Request req;
    size_t jobHash = 0;  // rounds: a job is known by this hash (a collision only defers a request a round)
    size_t hash = 0;
  };
  using RequestPtr = Queued*;
  /// A request looked up in the dirty set, with its hash (computed once per add).
  struct Probe {
    const Request& req;
    size_t hash;
  };
  struct SameRequest {
    using is_transparent = void;
    size_t operator()(const Queued* r) const { return r->hash; }
    size_t operator()(const Probe& p) const { return p.hash; }
    bool operator()(const Queued* a, const Queued* b) const { return a == b || (a->hash == b->hash && a->req == b->req); }
    bool operator()(const Probe& a, const Queued* b) const { return a.hash == b->hash && a.req == b->req; }
    bool operator()(const Queued* a, const Probe& b) const { return (*this)(b, a); }
  };

  /// One job's requests waiting for a later round, oldest first. A round takes the one at `next`,
  /// so taking one is O(1) however many a large job has waiting.
  struct DeferredRequests {
    std::vector<RequestPtr> items;
    size_t next = 0;
  };

  /// A request waiting for its backoff: when it is ready and which timer (by id) adds it.
  struct Waiting {
    TimeMs readyAt = 0;
    uint64_t id = 0;
    TimerHandle timer;
  };

  struct Worker {
    explicit Worker(size_t i) : index(i) {}
    const size_t index;
    boost::asio::io_context io;
    std::optional<boost::asio::executor_work_guard<boost::asio::io_context::executor_type>> guard;
    std::thread thread;
    std::mutex mutex;
    std::deque<RequestPtr> queue;
    boost::unordered_flat_set<RequestPtr, SameRequest, SameRequest> dirty;
    RequestPtr processing = nullptr;
    // Rounds: requests of jobs already served this round, FIFO per job, and the jobs in order.
    boost::unordered_flat_map<size_t, DeferredRequests> deferred;
    std::vector<size_t> deferredJobs;
    boost::unordered_flat_set<size_t> served;  // jobs served this round
    std::unordered_map<Request, int, RequestHash> failures;
    // Requests waiting for their backoff (client-go's delaying queue: one entry per request).
    std::unordered_map<Request, Waiting, RequestHash> waiting;
    uint64_t waitingSeq = 0;
    bool drainScheduled = false;
    std::vector<std::unique_ptr<Queued>> slots;  // every slot this worker made
    std::vector<Queued*> freeSlots;
    Queued* draft = nullptr;  // see draft()
  };

  size_t workerOf(const Request& req) const { return jobKeyHash(req) % workers_.size(); }
  Worker& workerFor(const Request& req) { return *workers_[workerOf(req)]; }
  static Queued* takeSlot(Worker& w);  // w.mutex held
  static void releaseSlot(Worker& w, Queued* slot) { w.freeSlots.push_back(slot); }
  void drain(Worker& w);             // a batch, then the idle hook when the queue ran empty
  void runBatch(Worker& w);
  void drainBatch(Worker& w);       // up to kDrainBatch requests (rounds go on inside), then the next drain
  void finishProcessing(Worker& w, bool reuse);  // after w.processing was handled (or abandoned: not reused)
  void scheduleDrain(Worker& w);  // w.mutex held
  bool enqueue(Worker& w, const Request& request);  // w.mutex held; true when queued (drain to schedule)
  bool enqueueSlot(Worker& w, RequestPtr req);     // enqueue() of a filled slot not yet in `dirty`
  void defer(Worker& w, RequestPtr req);  // w.mutex held
  void idle(Worker& w);                   // rounds: on w's thread once its queue ran empty
  /// Rounds, w's round having run out of requests: its idle hook (events that queue requests) or,
  /// when that finds nothing, the next round. False when nothing is left or the rounds are closed.
  bool nextRound(Worker& w);
  bool startNextRound(Worker& w);         // w.mutex held; false when nothing was deferred
  void backoffExpired(const Request& req, uint64_t id);  // a waiting request is ready: add it
  void increment() { pending_.fetch_add(1); }
  void decrement();

  Clock& clock_;
  std::shared_ptr<Lifeline> lifeline_ = std::make_shared<Lifeline>();
  Processor processor_;
  BatchRunner runner_;
  Abandoned abandoned_;
  std::vector<std::unique_ptr<Worker>> workers_;
  std::unique_ptr<Worker> commands_;
  std::atomic<int64_t> pending_{0};
  std::mutex idleMutex_;
  std::condition_variable idleCv_;
  bool running_ = false;
  std::atomic<bool> rounds_{false};
  std::atomic<bool> roundsOpen_{false};
  IdleHook idleHook_;
};

}  // namespace jobhost
