// Internal to admission: the rules Volcano moved out of its webhook into the Job CRD schema and the
// ValidatingAdmissionPolicy `job-validation-policy`, with their messages.
#pragma once

#include "host/admission/findings.h"
#include "jobhost/job.h"

namespace jobhost {

/// VAP: job minAvailable >= 0, maxRetry >= 0, ttlSecondsAfterFinished >= 0, task replicas >= 0,
/// task minAvailable >= 0, task names DNS-1123 labels (length included), the action of job-level
/// exit-code policies (RestartPartition allowed). CRD: task names at most 63 bytes matching the
/// DNS-1123 label pattern, queue and priorityClassName DNS subdomains of at most 253 bytes,
/// minSuccess >= 1, partition totalPartitions and partitionSize >= 1, and no field the schema does
/// not declare in Job, JobSpec, TaskSpec or the task's pod template (PodSpec, containers, their
/// resources and volume mounts, volumes) (strict field validation: `unknown field "spec.foo"`).
/// Each is recorded with the stage the API server raises it at: undeclared fields at strict field
/// validation, the CRD rules as the 422 Invalid answer's causes, the VAP's after both.
void checkSchemaRules(const Job& job, Findings& findings);

/// Strict field validation's `unknown field "<field>"`.
void unknownField(Findings& f, const std::string& field);

}  // namespace jobhost
