// BatchGate: a writer-preferring shared lock. Workers hold it shared while they process one
// item; a batch of cluster events (or a job add/update/delete) holds it exclusively, so a batch
// is applied to the cache as a whole before any request it causes runs.
#pragma once

#include <condition_variable>
#include <mutex>

namespace jobhost {

class BatchGate {
 public:
  void lock_shared() {
    std::unique_lock l(m_);
    cv_.wait(l, [&] { return !writer_ && waitingWriters_ == 0; });
    ++readers_;
  }
  void unlock_shared() {
    std::lock_guard l(m_);
    if (--readers_ == 0 && waitingWriters_ > 0) cv_.notify_all();
  }
  void lock() {
    std::unique_lock l(m_);
    ++waitingWriters_;
    cv_.wait(l, [&] { return !writer_ && readers_ == 0; });
    --waitingWriters_;
    writer_ = true;
  }
  void unlock() {
    std::lock_guard l(m_);
    writer_ = false;
    cv_.notify_all();
  }

 private:
  std::mutex m_;
  std::condition_variable cv_;
  int readers_ = 0;
  int waitingWriters_ = 0;
  bool writer_ = false;
};

}  // namespace jobhost
