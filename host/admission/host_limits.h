// Internal to admission: the limits this host puts on a job beyond Volcano's rules, so a typo in
// `replicas` is an error naming the field instead of a host that runs out of memory.
#pragma once

#include "host/admission/findings.h"
#include "jobhost/job.h"

namespace jobhost {

/// When the job's task replicas add up to more than config.maxPodsPerJob (0: no limit), one error at
/// the replicas of the task where the sum crosses it.
void checkHostLimits(const Job& job, const AdmissionConfig& config, Findings& findings);

}  // namespace jobhost
