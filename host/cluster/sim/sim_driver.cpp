// SimDriver: the settle loop and time stepping.
#include "host/cluster/sim/sim_driver.h"

namespace jobhost {

void SimDriver::settle() {
  controller_.waitForIdle();  // what was started before settling (requests, commands) runs first
  controller_.openLanes(true);
  for (;;) {
    cluster_.deliver();  // script actions (evictions, lost nodes), into the lanes
    controller_.kickLanes([this](size_t lane) { return cluster_.lanePending(lane); });
    controller_.waitForIdle();
    if (!cluster_.lanesPending() && !cluster_.schedule()) break;  // the scheduler acts once all else is quiet
  }
  controller_.openLanes(false);
}

void SimDriver::runUntil(TimeMs until, const std::function<bool()>& stop) {
  settle();
  for (;;) {
    if (stop && stop()) return;
    auto due = clock_.nextDue();
    if (!due || *due > until) break;
    clock_.advanceTo(*due);
    settle();
  }
  if (until != kForever && until > clock_.now()) clock_.advanceTo(until);
}

}  // namespace jobhost
