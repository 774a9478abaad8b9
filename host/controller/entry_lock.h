// EntryLock: the lock of one cached job. Unlike std::mutex it may be released by a thread other
// than the one that took it: a worker takes over the hold of a request abandoned inside a plugin.
#pragma once

#include <atomic>
#include <cstdint>

#include "host/common/futex.h"

namespace jobhost {

class EntryLock {
 public:
  void lock() {
    uint32_t expected = kFree;
    if (state_.compare_exchange_strong(expected, kLocked, std::memory_order_acquire)) return;
    // Contended: mark waiters and sleep until a release hands the lock to whoever wins it.
    while (state_.exchange(kContended, std::memory_order_acquire) != kFree) futexWait(state_, kContended);
  }
  void unlock() {
    if (state_.exchange(kFree, std::memory_order_release) == kContended) futexWake(state_);
  }

 private:
  static constexpr uint32_t kFree = 0, kLocked = 1, kContended = 2;
  std::atomic<uint32_t> state_{kFree};
};

}  // namespace jobhost
