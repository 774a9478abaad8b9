// What the svc plugin derives from one job for its hooks — options, the hosts ConfigMap, the hosts
// env, the ConfigMap volume and mount — kept per job (jobhost::jobCache) and rebuilt when stale.
#pragma once

#include <jobhost/jobhost.h>

#include <memory>
#include <string>
#include <vector>

#include "svc_options.h"

namespace svc {

struct SvcJobData {
  /// What it was derived from: the args, and everything GenerateHosts and the objects read.
  jobhost::PluginArgs args;
  jobhost::volcano::HostsSource source;

  SvcOptions options;                     // what the args parse to (bad flags: reported at admission)
  jobhost::Components hostsConfigMap;     // just the `<job>-svc` ConfigMap, ready to apply
  mutable uint64_t hostsVerified = 0;     // volcano::createOrUpdateConfigMap's memo
  std::vector<jobhost::EnvVar> hostsEnv;  // VC_<T>_HOSTS, VC_<T>_NUM per task, from the ConfigMap
  jobhost::Volume volume;                 // the ConfigMap as a pod volume
  jobhost::VolumeMount mount;             // ... mounted at /etc/volcano

  const jobhost::ConfigMap& configMap() const { return hostsConfigMap.configMaps.front(); }
  /// Whether this was derived from `job` and `args` as they are now.
  bool matches(const jobhost::Job& job, const jobhost::PluginArgs& args) const;
};

/// Derives everything from `job` and `args`.
SvcJobData makeSvcJobData(const jobhost::Job& job, const jobhost::PluginArgs& args);
/// The data for this hook call: kept in the plugin's per-job slot while it matches ctx.job() and
/// ctx.args(), else derived again.
std::shared_ptr<const SvcJobData> svcJobData(jobhost::JobContext& ctx);

}  // namespace svc
