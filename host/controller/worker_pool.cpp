// WorkerPool: each worker is a single-threaded io_context; a drain handler pops requests in
// batches (so posted tasks interleave fairly) while the queue's dedup sets follow client-go.
#include "host/controller/worker_pool.h"

#include <algorithm>
#include <utility>
#include <stdexcept>

#include <boost/asio/post.hpp>

namespace jobhost {
namespace {
constexpr int kDrainBatch = 256;  // requests per drain: posted tasks wait at most this long; one guard handoff each
}

WorkerPool::WorkerPool(size_t workers, Clock& clock) : clock_(clock) {
  workers_.reserve(std::max<size_t>(workers, 1));
  for (size_t i = 0; i < std::max<size_t>(workers, 1); ++i) workers_.push_back(std::make_unique<Worker>(i));
  commands_ = std::make_unique<Worker>(workers_.size());
}

WorkerPool::~WorkerPool() {
  lifeline_->end();
  stop();
}

void WorkerPool::useRounds(IdleHook idle) {
  if (running_) throw std::logic_error("WorkerPool::useRounds after start()");
  rounds_ = true;
  idleHook_ = std::move(idle);
}

void WorkerPool::start(Processor processor, BatchRunner runner, Abandoned abandoned) {
  processor_ = std::move(processor);
  runner_ = std::move(runner);
  abandoned_ = std::move(abandoned);
  running_ = true;
  auto launch = [](Worker& w) {
    w.guard.emplace(boost::asio::make_work_guard(w.io));
    w.thread = std::thread([&w] { w.io.run(); });
  };
  for (auto& w : workers_) launch(*w);
  launch(*commands_);
}

void WorkerPool::stop() {
  if (!running_) return;
  running_ = false;
  auto halt = [](Worker& w) {
    w.guard.reset();
    w.io.stop();
    if (w.thread.joinable()) w.thread.join();
  };
  halt(*commands_);
  for (auto& w : workers_) halt(*w);
}

void WorkerPool::decrement() {
  if (pending_.fetch_sub(1) == 1) {
    std::lock_guard lock(idleMutex_);
    idleCv_.notify_all();
  }
}

void WorkerPool::waitForIdle() {
  std::unique_lock lock(idleMutex_);
  idleCv_.wait(lock, [&] { return pending_.load() == 0; });
}

void WorkerPool::scheduleDrain(Worker& w) {
  if (w.drainScheduled || w.queue.empty()) return;
  w.drainScheduled = true;
  increment();  // a drain is work until it ran, idle hook included: the pool is not idle meanwhile
  boost::asio::post(w.io, [this, &w] {
    drain(w);
    decrement();
  });
}

void WorkerPool::Queued::set(const Request& r, size_t requestHash) {
  req = r;  // copy-assigned: the slot's strings keep their storage
  stamp(requestHash);
}

void WorkerPool::Queued::stamp(size_t requestHash) {
  jobHash = ObjectKeyHash{}(ObjectRef{req.namespace_, req.jobName});
  hash = requestHash;
}

WorkerPool::Queued* WorkerPool::takeSlot(Worker& w) {
  if (w.freeSlots.empty()) {
    w.slots.push_back(std::make_unique<Queued>());
    return w.slots.back().get();
  }
  Queued* slot = w.freeSlots.back();
  w.freeSlots.pop_back();
  return slot;
}

bool WorkerPool::enqueue(Worker& w, const Request& request) {
  const size_t hash = RequestHash{}(request);
  if (w.dirty.contains(Probe{request, hash})) return false;
  Queued* req = takeSlot(w);
  req->set(request, hash);
  return enqueueSlot(w, req);
}

bool WorkerPool::enqueueSlot(Worker& w, RequestPtr req) {
  w.dirty.insert(req);
  if (rounds_) {
    if (auto it = w.deferred.find(req->jobHash); it != w.deferred.end()) {
      it->second.items.push_back(req);  // behind the job's waiting requests
      return false;
    }
  }
  increment();
  if (w.processing && w.processing->hash == req->hash && w.processing->req == req->req) return false;  // re-queued when its processing is done
  w.queue.push_back(req);
  return true;
}

void WorkerPool::add(size_t worker, const Request& request) {
  Worker& w = *workers_[worker];
  std::lock_guard lock(w.mutex);
  if (enqueue(w, request)) scheduleDrain(w);
}

Request& WorkerPool::draft(size_t worker) {
  Worker& w = *workers_[worker];
  if (!w.draft) {
    std::lock_guard lock(w.mutex);
    w.draft = takeSlot(w);
  }
  return w.draft->req;
}

void WorkerPool::addDraft(size_t worker) {
  Worker& w = *workers_[worker];
  std::lock_guard lock(w.mutex);
  Queued* req = w.draft;
  const size_t hash = RequestHash{}(req->req);
  if (w.dirty.contains(Probe{req->req, hash})) return;
  req->stamp(hash);
  w.draft = nullptr;
  if (enqueueSlot(w, req)) scheduleDrain(w);
}

void WorkerPool::defer(Worker& w, RequestPtr req) {
  auto [it, fresh] = w.deferred.try_emplace(req->jobHash);
  if (fresh) w.deferredJobs.push_back(req->jobHash);
  it->second.items.push_back(req);
}

void WorkerPool::drain(Worker& w) {
  runBatch(w);
  if (idleHook_) idle(w);
}

void WorkerPool::runBatch(Worker& w) {
  if (!runner_) return drainBatch(w);
  struct Batch {
    WorkerPool* pool;
    Worker* worker;
  } batch{this, &w};
  Status st = runner_([](void* p) { static_cast<Batch*>(p)->pool->drainBatch(*static_cast<Batch*>(p)->worker); }, &batch);
  if (st) return;
  // The batch's thread is stuck in a plugin for good while processing w.processing: finish that
  // request here and go on with the queue (the next batch gets a new thread).
  if (abandoned_) abandoned_(w.index, st.message());
  finishProcessing(w, false);
  std::lock_guard lock(w.mutex);
  w.drainScheduled = false;
  scheduleDrain(w);
}

void WorkerPool::drainBatch(Worker& w) {
  for (int n = 0; n < kDrainBatch;) {
    bool ranOut = false;
    {
      std::lock_guard lock(w.mutex);
      if (w.queue.empty()) {
        ranOut = true;
      } else {
        RequestPtr req = w.queue.front();
        w.queue.pop_front();
        if (rounds_ && !w.served.insert(req->jobHash).second) {
          defer(w, req);  // stays in `dirty`: still queued for dedup
          decrement();
          continue;
        }
        w.dirty.erase(req);
        w.processing = req;
      }
    }
    if (ranOut) {
      // Rounds go on in this batch (one guard handoff for many rounds of a large job's requests).
      if (idleHook_ && nextRound(w)) continue;
      std::lock_guard lock(w.mutex);
      if (!w.queue.empty()) continue;  // added meanwhile
      w.drainScheduled = false;
      return;
    }
    processor_(w.index, w.processing->req);  // only this batch writes `processing`; add() reads it under the lock
    finishProcessing(w, true);
    ++n;
  }
  std::lock_guard lock(w.mutex);
  w.drainScheduled = false;
  scheduleDrain(w);
}

void WorkerPool::finishProcessing(Worker& w, bool reuse) {
  {
    std::lock_guard lock(w.mutex);
    RequestPtr req = std::exchange(w.processing, nullptr);
    if (auto again = w.dirty.find(req); again != w.dirty.end()) {  // re-added while processing
      if (rounds_) {
        defer(w, *again);  // this job was served this round
        decrement();
      } else {
        w.queue.push_back(*again);
      }
    }
    if (reuse) releaseSlot(w, req);  // an abandoned thread may still hold its request: never reused
  }
  decrement();
}

bool WorkerPool::startNextRound(Worker& w) {
  w.served.clear();
  std::vector<size_t> still;
  bool any = false;
  for (size_t job : w.deferredJobs) {
    auto it = w.deferred.find(job);
    DeferredRequests& waiting = it->second;
    w.queue.push_back(waiting.items[waiting.next++]);
    increment();
    any = true;
    if (waiting.next == waiting.items.size()) {
      w.deferred.erase(it);
      continue;
    }
    if (2 * waiting.next >= waiting.items.size()) {  // drop the taken half: amortised O(1), bounded memory
      waiting.items.erase(waiting.items.begin(), waiting.items.begin() + static_cast<std::ptrdiff_t>(waiting.next));
      waiting.next = 0;
    }
    still.push_back(job);
  }
  w.deferredJobs.swap(still);
  scheduleDrain(w);
  return any;
}

void WorkerPool::idle(Worker& w) {
  for (;;) {
    {
      std::lock_guard lock(w.mutex);
      if (w.drainScheduled || !w.queue.empty()) return;  // the drain comes back here when done
    }
    if (!nextRound(w)) return;
  }
}

bool WorkerPool::nextRound(Worker& w) {
  if (!roundsOpen_) return false;
  if (idleHook_(w.index)) return true;
  std::lock_guard lock(w.mutex);
  return startNextRound(w);
}

void WorkerPool::kick(const std::function<bool(size_t worker)>& pending) {
  for (auto& w : workers_) {
    bool deferred;
    {
      std::lock_guard lock(w->mutex);
      deferred = !w->deferredJobs.empty();
    }
    if (deferred || pending(w->index)) post(w->index, [this, worker = w.get()] { idle(*worker); });
  }
}

void WorkerPool::addRateLimited(const Request& req) {
  Worker& w = workerFor(req);
  std::lock_guard lock(w.mutex);
  int failures = w.failures[req]++;
  int64_t delay = failures >= 30 ? kMaxBackoffMs : std::min(kMaxBackoffMs, kBaseBackoffMs << failures);
  TimeMs readyAt = clock_.now() + delay;
  auto [it, fresh] = w.waiting.try_emplace(req);
  Waiting& entry = it->second;
  if (!fresh) {
    if (entry.readyAt <= readyAt) return;
    entry.timer.cancel();
  }
  entry.readyAt = readyAt;
  entry.id = ++w.waitingSeq;
  entry.timer = clock_.schedule(delay, [this, life = lifeline_, req, id = entry.id] {
    life->run([&] { backoffExpired(req, id); });
  });
}

void WorkerPool::backoffExpired(const Request& req, uint64_t id) {
  Worker& w = workerFor(req);
  std::lock_guard lock(w.mutex);
  auto it = w.waiting.find(req);
  if (it == w.waiting.end() || it->second.id != id) return;  // replaced by an earlier one
  w.waiting.erase(it);
  if (enqueue(w, req)) scheduleDrain(w);
}

int WorkerPool::numRequeues(const Request& req) {
  Worker& w = workerFor(req);
  std::lock_guard lock(w.mutex);
  auto it = w.failures.find(req);
  return it == w.failures.end() ? 0 : it->second;
}

void WorkerPool::forget(size_t worker, const Request& req) {
  Worker& w = *workers_[worker];
  std::lock_guard lock(w.mutex);
  if (!w.failures.empty()) w.failures.erase(req);
}

void WorkerPool::post(size_t worker, std::function<void()> task) {
  increment();
  boost::asio::post(workers_[worker]->io, [this, task = std::move(task)] {
    task();
    decrement();
  });
}

void WorkerPool::postCommand(std::function<void()> task) {
  increment();
  boost::asio::post(commands_->io, [this, task = std::move(task)] {
    task();
    decrement();
  });
}

}  // namespace jobhost
