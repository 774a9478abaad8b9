// Volcano's mutating webhook for jobs (spec §8.1, CREATE only): defaults applied in Volcano's order,
// reported as the JSON-patch operations Volcano would send.
#pragma once

#include <string>
#include <vector>

#include "jobhost/job.h"

namespace jobhost {

/// One JSON-patch operation of the mutation, for display (`jobhost validate`).
struct PatchOp {
  std::string op;    // "add" or "replace", as Volcano sends it
  std::string path;  // "/spec/queue", "/spec/tasks", ...
  /// The new value as compact JSON (encoding/json form), except for "/spec/tasks", where it lists
  /// the defaulted task fields: `[0].name="default0", [1].minAvailable=2, [1].maxRetry=3`.
  std::string value;
  friend bool operator==(const PatchOp&, const PatchOp&) = default;
};

struct MutationConfig {
  /// HostConfig::schedulerNames: the first is the default schedulerName; none means "volcano".
  std::vector<std::string> schedulerNames;
};

/// Applies Volcano's defaults to `job` in Volcano's order and returns the operations applied:
///  1. /spec/queue = "default" if empty;
///  2. /spec/schedulerName = first configured scheduler name, else "volcano", if empty;
///  3. /spec/maxRetry = 3 if 0;
///  4. /spec/tasks replaced if any task changed: empty name -> "default<i>"; hostNetwork with empty
///     dnsPolicy -> ClusterFirstWithHostNet; unset minAvailable -> minPartitions*partitionSize when
///     the task has a partitionPolicy with minPartitions > 0, else replicas; maxRetry 0 -> 3;
///  5. /spec/minAvailable = Σ task minAvailable (after step 4) if 0;
///  6. /spec/plugins replaced when plugins is non-empty (Volcano: non-nil; jobhost cannot tell an
///     empty map from an absent one): svc added for tensorflow, mpi, pytorch, ray or torch; ssh added
///     for mpi; env never.
/// Pure apart from `job`; any thread.
std::vector<PatchOp> mutateJob(Job& job, const MutationConfig& config);

}  // namespace jobhost
