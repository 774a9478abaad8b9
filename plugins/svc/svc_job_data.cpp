// Building and checking the svc plugin's per-job data. The ConfigMap is the same builder's
// output as ComponentBuild's (svc_objects.h).
#include "svc_job_data.h"

#include "svc_hosts.h"
#include "svc_objects.h"
#include "svc_pod.h"

namespace svc {
namespace {

std::vector<jobhost::EnvVar> hostsEnv(const jobhost::Job& job) {
  const std::string configMap = configMapName(job);
  std::vector<jobhost::EnvVar> env;
  env.reserve(2 * job.spec.tasks.size());
  for (const auto& task : job.spec.tasks) {
    const std::string prefix = "VC_" + envKey(task.name);
    for (const char* suffix : {"_HOSTS", "_NUM"}) {
      jobhost::EnvVar& var = env.emplace_back();
      var.name = prefix + suffix;
      var.valueFrom.emplace().configMapKeyRef = jobhost::KeySelector{configMap, var.name, std::nullopt};
    }
  }
  return env;
}

}  // namespace

bool SvcJobData::matches(const jobhost::Job& j, const jobhost::PluginArgs& a) const {
  return a == args && source.matches(j);
}

SvcJobData makeSvcJobData(const jobhost::Job& job, const jobhost::PluginArgs& args) {
  SvcJobData d;
  d.args = args;
  d.source = jobhost::volcano::HostsSource::of(job);

  static_cast<void>(parseSvcOptions(args, d.options));  // a bad flag was reported at admission
  d.hostsConfigMap.configMaps.push_back(hostsConfigMap(job));
  d.hostsEnv = hostsEnv(job);
  d.volume.name = configMapName(job);
  d.volume.configMap = jobhost::ConfigMapVolumeSource{};
  d.volume.configMap->name = d.volume.name;
  d.mount.name = d.volume.name;
  d.mount.mountPath = kHostsMountPath;
  return d;
}

std::shared_ptr<const SvcJobData> svcJobData(jobhost::JobContext& ctx) {
  return jobhost::jobCache<SvcJobData>(
      ctx, [&](const SvcJobData& d) { return d.matches(ctx.job(), ctx.args()); },
      [&] { return makeSvcJobData(ctx.job(), ctx.args()); });
}

}  // namespace svc
