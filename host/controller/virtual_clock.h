// VirtualClock: simulated time that moves only when advanced. Timers fire in (due time,
// scheduling order) sequence on the thread that advances the clock. Deterministic and fast.
#pragma once

#include <cstdint>
#include <mutex>
#include <optional>
#include <queue>
#include <vector>

#include "host/controller/clock.h"

namespace jobhost {

class VirtualClock final : public Clock {
 public:
  explicit VirtualClock(TimeMs start = 0) : now_(start) {}

  TimeMs now() const override { return now_.load(); }
  TimerHandle schedule(int64_t delayMs, std::function<void()> fn) override;

  /// Due time of the earliest timer that is not cancelled.
  std::optional<TimeMs> nextDue();
  /// Moves time to `t` (never backwards), firing every timer due at or before `t` in order,
  /// including timers scheduled by those callbacks while still due by `t`. Returns how many ran.
  size_t advanceTo(TimeMs t);
  /// Fires every timer due at the earliest due time; returns how many ran (0: no timers).
  size_t fireNext();

 private:
  struct Timer {
    TimeMs due;
    uint64_t seq;
    std::shared_ptr<std::atomic<bool>> cancelled;
    std::function<void()> fn;
  };
  struct Later {
    bool operator()(const Timer& a, const Timer& b) const {
      return a.due != b.due ? a.due > b.due : a.seq > b.seq;
    }
  };

  std::atomic<TimeMs> now_;
  std::mutex mutex_;
  uint64_t seq_ = 0;
  std::priority_queue<Timer, std::vector<Timer>, Later> timers_;
};

}  // namespace jobhost
