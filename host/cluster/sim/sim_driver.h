// SimDriver: runs the controller and the sim cluster on a virtual clock, deterministically. An
// instant is settled in rounds, by each worker for its lane's jobs in parallel: each job handles one
// request, the events that caused are taken, then the next round; the scheduler runs when all
// lanes are quiet; then time moves.
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

  /// Splits the cluster into one lane per controller worker. Before the controller starts.
  SimDriver(VirtualClock& clock, SimCluster& cluster, Controller& controller)
      : clock_(clock), cluster_(cluster), controller_(controller) {
    cluster_.useLanes(controller_.workers(), [&c = controller_](std::string_view ns, std::string_view job) {
      return c.workerOf(ns, job);
    });
    controller_.useLanes(cluster_);
  }

  /// Repeats: wait until every worker has settled its lane (its rounds ran out of requests and
  /// events); apply script actions and anything else put in the lanes; else run the scheduler;
  /// until none of them has anything to do.
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
