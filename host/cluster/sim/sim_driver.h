// SimDriver: runs the controller and the sim cluster on a virtual clock, deterministically. An
// instant is settled in rounds: each job handles one request, the events that caused are
// delivered, then the next round; the scheduler runs when nothing else is left; then time moves.
#pragma once

#include <functional>
#include <limits>

#include "host/cluster/sim/sim_cluster.h"
#include "host/controller/controller.h"
#include "host/controller/virtual_clock.h"

namespace jobhost {

class SimDriver {
 public:
  static constexpr TimeMs kForever = std::numeric_limits<TimeMs>::max();

  SimDriver(VirtualClock& clock, SimCluster& cluster, Controller& controller)
      : clock_(clock), cluster_(cluster), controller_(controller) {
    controller_.useRounds();
  }

  /// Repeats: wait until the controller is idle; deliver cluster events; else start the next
  /// round of requests; else run the scheduler; until none of them has anything to do.
  void settle();
  /// Fires timers in time order up to `until`, settling after each instant. Stops early, after a
  /// settle, when `stop` returns true. Leaves the clock at `until` (unless kForever or stopped).
  void runUntil(TimeMs until, const std::function<bool()>& stop = {});
  /// runUntil(now + ms).
  void advance(int64_t ms) { runUntil(clock_.now() + ms); }

 private:
  VirtualClock& clock_;
  SimCluster& cluster_;
  Controller& controller_;
};

}  // namespace jobhost
