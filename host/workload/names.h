// Names of the objects a job makes: pods `<job>-<task>-<index>`, the PodGroup `<job>-<uid>`, and
// the deterministic claim and pod volume names that stand in for Volcano's random ones; and the
// job a PodGroup or pod belongs to.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "jobhost/job.h"

namespace jobhost {

/// Volcano's MakePodName: fmt "%s-%s-%d".
std::string podName(std::string_view job, std::string_view task, int32_t index);

/// `<job>-<job.metadata.uid>` (the PodGroup's name and the pods' group-name annotation).
std::string podGroupName(const Job& job);

/// Name of the pod volume that mounts the job volume with claim `claimName`: `<job>-` followed by
/// 12 characters from [0-9a-z]. Volcano draws them at random for every pod; jobhost derives them
/// from FNV-1a-64 of (job uid, claim name) so output is reproducible, and every pod of the job
/// uses the same name for the same claim.
std::string jobVolumeName(const Job& job, std::string_view claimName);

/// The claim name given to a job volume without one: `<job>-pvc-` followed by 12 characters from
/// [0-9a-z]. Volcano draws them at random; jobhost derives them from (job uid, seq), seq counting
/// the names tried for the job, so output is reproducible (the controller skips names in use).
std::string generatedClaimName(const Job& job, uint64_t seq);

/// The job a PodGroup belongs to: the name of its Job owner reference, else its own name.
const std::string& podGroupJobName(const PodGroup& pg);
/// The job named by a pod's volcano.sh/job-name annotation, or nullptr when it has none.
const std::string* podJobName(const Pod& pod);

}  // namespace jobhost
