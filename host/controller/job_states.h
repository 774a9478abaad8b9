// The Volcano job state machine (spec §4): for the job's phase and an action, which primitive
// runs and how it changes the status.
#pragma once

#include "host/controller/job_actions.h"
#include "host/controller/policies.h"

namespace jobhost {

/// st.Execute(action) of the state for `phase` (the phase the request started in). The caller
/// holds entry.mutex and entry.job is set.
Status executeStateAction(JobActions& actions, JobEntry& entry, JobPhase phase, const StateAction& action);

}  // namespace jobhost
