// Pod mutation of the svc plugin, in Volcano's order: hostname/subdomain, hosts env (containers,
// then init containers), the ConfigMap volume, then its mount in every container.
#include "svc_pod.h"

#include <algorithm>
#include <vector>

#include "svc_hosts.h"
#include "svc_objects.h"

namespace svc {
namespace {

std::vector<jobhost::EnvVar> hostsEnv(const jobhost::Job& job) {
  std::vector<jobhost::EnvVar> env;
  for (const auto& task : job.spec.tasks)
    for (const char* suffix : {"_HOSTS", "_NUM"}) {
      jobhost::EnvVar var;
      var.name = "VC_" + envKey(task.name) + suffix;
      var.valueFrom = jobhost::EnvVarSource{};
      var.valueFrom->configMapKeyRef = jobhost::KeySelector{configMapName(job), var.name, std::nullopt};
      env.push_back(std::move(var));
    }
  return env;
}

// Volcano appends the hosts env, so it ends each container's env in task order even when the
// template (or an earlier call) already set one of the names; upserting alone would leave it there.
void moveToEnd(std::vector<jobhost::EnvVar>& env, const std::vector<jobhost::EnvVar>& order) {
  for (const auto& var : order) {
    auto it = std::find_if(env.begin(), env.end(), [&](const auto& e) { return e.name == var.name; });
    if (it != env.end()) std::rotate(it, it + 1, env.end());
  }
}

}  // namespace

void decorateSvcPod(jobhost::JobContext& ctx, const SvcOptions& options, jobhost::Pod& pod) {
  const jobhost::Job& job = ctx.job();
  if (pod.spec.hostname.empty()) pod.spec.hostname = pod.metadata.name;
  if (pod.spec.subdomain.empty()) pod.spec.subdomain = job.metadata.name;

  if (options.injectHostsEnv) {
    const auto env = hostsEnv(job);
    for (auto* list : {&pod.spec.containers, &pod.spec.initContainers})
      for (auto& c : *list) {
        for (const auto& var : env) ctx.setEnv(c, var);
        moveToEnd(c.env, env);
      }
  }

  jobhost::Volume volume;
  volume.name = configMapName(job);
  volume.configMap = jobhost::ConfigMapVolumeSource{};
  volume.configMap->name = configMapName(job);
  jobhost::upsertVolume(pod.spec.volumes, std::move(volume));

  jobhost::VolumeMount mount;
  mount.name = configMapName(job);
  mount.mountPath = kHostsMountPath;
  for (auto* list : {&pod.spec.containers, &pod.spec.initContainers})
    for (auto& c : *list) jobhost::upsertVolumeMount(c.volumeMounts, mount);
}

}  // namespace svc
