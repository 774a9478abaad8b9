// runSimulation: the engine of `jobhost simulate JOB --script FILE`: one job on the sim backend
// under the virtual clock, following the script, printing what the controller did as JSON lines.
#pragma once

#include <iosfwd>

#include "host/cluster/sim/simulation_script.h"
#include "host/config/config.h"
#include "host/controller/job_plugins.h"
#include "jobhost/job.h"

namespace jobhost {

/// Runs `job` (already defaulted and admitted) from virtual time 0. Writes one JSON line per
/// handled request and per PodGroup Unschedulable report (unschedulableJson), then {"final": <job status>, "t_ms": <end time>} (plus "deleted": true when
/// the TTL removed the job). The cluster is the script's `cluster`, else `cluster`. Stops at the
/// script's `until`, else when the job reaches Completed/Terminated/Failed or nothing is left
/// to happen. Returns an error only when the job cannot be submitted (e.g. plugin prepare fails).
Status runSimulation(const Job& job, const SimulationScript& script, JobPlugins& plugins,
                     const ControllerConfig& controller, std::ostream& out, const SimBackendConfig& cluster = {});

}  // namespace jobhost
