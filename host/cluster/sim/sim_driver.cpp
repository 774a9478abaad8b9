// SimDriver: the settle loop and time stepping.
#include "host/cluster/sim/sim_driver.h"

namespace jobhost {

void SimDriver::settle() {
  for (;;) {
    controller_.waitForIdle();
    if (cluster_.deliver()) continue;            // events caused by the requests just handled
    if (controller_.startNextRound()) continue;  // the next request of each job
    if (!cluster_.schedule()) break;             // the scheduler acts once all else is quiet
  }
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
