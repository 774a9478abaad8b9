// The objects the svc plugin creates for a job: the `<job>-svc` hosts ConfigMap, the headless
// Service `<job>` and the NetworkPolicy `<job>`, exactly as Volcano's svc plugin builds them.
#pragma once

#include <jobhost/jobhost.h>

#include <string>

#include "svc_options.h"

namespace svc {

/// `<job>-svc`: the hosts ConfigMap, also the name of the pod volume that mounts it.
std::string configMapName(const jobhost::Job& job);
jobhost::ConfigMap hostsConfigMap(const jobhost::Job& job);
jobhost::Service headlessService(const jobhost::Job& job, const SvcOptions& options);
jobhost::NetworkPolicy jobNetworkPolicy(const jobhost::Job& job);
/// Appends the ConfigMap, the Service and (unless disabled) the NetworkPolicy to `out`.
void appendSvcComponents(const jobhost::Job& job, const SvcOptions& options, jobhost::Components& out);

}  // namespace svc
