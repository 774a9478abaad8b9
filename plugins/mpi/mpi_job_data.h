// What the mpi plugin's hooks derive from one job — the hostfile ConfigMap, ready to apply — kept
// per job (jobhost::jobCache) and rebuilt when stale, so a sync does not rebuild it per worker.
#pragma once

#include <jobhost/jobhost.h>

#include <cstdint>
#include <memory>

namespace mpi {

struct MpiJobData {
  /// What it was derived from: the args, the job's hosts, and the slots per host (which follow
  /// the worker's GPUs unless --slots is given).
  jobhost::PluginArgs args;
  jobhost::volcano::HostsSource source;
  int64_t slots = 1;

  jobhost::Components hostfile;  // the `<job>-mpi-hostfile` ConfigMap; empty without master or worker
  mutable uint64_t hostfileVerified = 0;  // volcano::createOrUpdateConfigMap's memo

  /// Whether this was derived from `job` and `args` as they are now.
  bool matches(const jobhost::Job& job, const jobhost::PluginArgs& args) const;
};

/// The data for this hook call: kept in the plugin's per-job slot while it matches ctx.job() and
/// ctx.args(), else derived again.
std::shared_ptr<const MpiJobData> mpiJobData(jobhost::JobContext& ctx);

}  // namespace mpi
