// VirtualClock: a mutex-guarded min-heap of timers; callbacks run with the mutex released so
// they may schedule further timers.
#include "host/controller/virtual_clock.h"

namespace jobhost {

TimerHandle VirtualClock::schedule(int64_t delayMs, std::function<void()> fn) {
  auto cancelled = std::make_shared<std::atomic<bool>>(false);
  std::lock_guard lock(mutex_);
  timers_.push(Timer{now_.load() + (delayMs < 0 ? 0 : delayMs), seq_++, cancelled, std::move(fn)});
  return TimerHandle(cancelled);
}

std::optional<TimeMs> VirtualClock::nextDue() {
  std::lock_guard lock(mutex_);
  while (!timers_.empty() && timers_.top().cancelled->load()) timers_.pop();
  if (timers_.empty()) return std::nullopt;
  return timers_.top().due;
}

size_t VirtualClock::advanceTo(TimeMs t) {
  size_t fired = 0;
  for (;;) {
    Timer timer;
    {
      std::lock_guard lock(mutex_);
      if (timers_.empty() || timers_.top().due > t) break;
      // Moved out of the heap top (its due/seq, which order the heap, stay intact) just before pop.
      timer = std::move(const_cast<Timer&>(timers_.top()));
      timers_.pop();
      if (timer.due > now_.load()) now_.store(timer.due);
    }
    if (timer.cancelled->load()) continue;
    timer.fn();
    ++fired;
  }
  if (t > now_.load()) now_.store(t);
  return fired;
}

size_t VirtualClock::fireNext() {
  auto due = nextDue();
  return due ? advanceTo(*due) : 0;
}

}  // namespace jobhost
