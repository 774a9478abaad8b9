// Pod mutation of the svc plugin, in Volcano's order: hostname/subdomain, hosts env (containers,
// then init containers), the ConfigMap volume, then its mount in every container.
#include "svc_pod.h"

#include <algorithm>
#include <vector>

#include "svc_job_data.h"

namespace svc {
namespace {

// Volcano appends the hosts env, so it ends each container's env in task order even when the
// template (or an earlier call) already set one of the names; upserting alone would leave it there.
void moveToEnd(std::vector<jobhost::EnvVar>& env, const std::vector<jobhost::EnvVar>& order) {
  auto first = [&](const std::string& name) {
    return std::find_if(env.begin(), env.end(), [&](const auto& e) { return e.name == name; });
  };
  bool inPlace = env.size() >= order.size();  // just appended: each is already where it belongs
  for (size_t i = 0; inPlace && i < order.size(); ++i)
    inPlace = first(order[i].name) == env.end() - static_cast<long>(order.size() - i);
  if (inPlace) return;
  for (const auto& var : order)
    if (auto it = first(var.name); it != env.end()) std::rotate(it, it + 1, env.end());
}

}  // namespace

void decorateSvcPod(jobhost::JobContext& ctx, const SvcJobData& data, jobhost::Pod& pod) {
  if (pod.spec.hostname.empty()) pod.spec.hostname = pod.metadata.name;
  if (pod.spec.subdomain.empty()) pod.spec.subdomain = ctx.job().metadata.name;

  if (data.options.injectHostsEnv)
    for (auto* list : {&pod.spec.containers, &pod.spec.initContainers})
      for (auto& c : *list) {
        for (const auto& var : data.hostsEnv) ctx.setEnv(c, var);
        moveToEnd(c.env, data.hostsEnv);
      }

  jobhost::upsertVolume(pod.spec.volumes, data.volume);
  for (auto* list : {&pod.spec.containers, &pod.spec.initContainers})
    for (auto& c : *list) jobhost::upsertVolumeMount(c.volumeMounts, data.mount);
}

}  // namespace svc
