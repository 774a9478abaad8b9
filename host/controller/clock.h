// Clock: the controller's time source and timer service. One interface, two implementations:
// RealClock (Asio steady timers on a thread of its own) and VirtualClock (advanced by hand).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>

#include "jobhost/meta.h"

namespace jobhost {

/// Cancels one scheduled callback. Copies share the timer; cancelling an expired or already
/// cancelled timer does nothing. Thread-safe.
class TimerHandle {
 public:
  TimerHandle() = default;
  explicit TimerHandle(std::shared_ptr<std::atomic<bool>> cancelled) : cancelled_(std::move(cancelled)) {}
  void cancel() {
    if (cancelled_) cancelled_->store(true);
  }
  bool cancelled() const { return cancelled_ && cancelled_->load(); }

 private:
  std::shared_ptr<std::atomic<bool>> cancelled_;
};

/// Lets a timer callback outlive the object that scheduled it: the owner ends the lifeline in
/// its destructor, after which guarded callbacks do nothing (and end() waits for running ones).
class Lifeline {
 public:
  template <class Fn>
  void run(Fn&& fn) {
    std::lock_guard lock(mutex_);
    if (alive_) fn();
  }
  void end() {
    std::lock_guard lock(mutex_);
    alive_ = false;
  }

 private:
  std::recursive_mutex mutex_;
  bool alive_ = true;
};

/// Time and timers for the controller (delayed actions, requeue backoff, TTL) and the backends.
/// Callbacks must be short (they post work elsewhere) and must not throw.
class Clock {
 public:
  virtual ~Clock() = default;
  /// Milliseconds since the Unix epoch (real) or since the virtual epoch (virtual).
  virtual TimeMs now() const = 0;
  /// Runs `fn` once, `delayMs` (>= 0) after now, unless the handle is cancelled first.
  virtual TimerHandle schedule(int64_t delayMs, std::function<void()> fn) = 0;
};

}  // namespace jobhost
