// Builders for the svc plugin's ConfigMap, Service and NetworkPolicy, each owned by the job
// (controller owner reference), selecting the job's pods by job-name and job-namespace labels.
#include "svc_objects.h"

#include "svc_hosts.h"

namespace svc {
namespace {

jobhost::StringMap jobPodLabels(const jobhost::Job& job) {
  jobhost::StringMap labels;
  labels.emplace(jobhost::keys::JobName, job.metadata.name);
  labels.emplace(jobhost::keys::JobNamespace, job.metadata.namespace_);
  return labels;
}

}  // namespace

std::string configMapName(const jobhost::Job& job) { return job.metadata.name + "-svc"; }

jobhost::ConfigMap hostsConfigMap(const jobhost::Job& job) {
  jobhost::ConfigMap cm;
  cm.metadata = jobhost::volcano::ownedBy(job, configMapName(job));
  cm.data = hostsData(job);
  return cm;
}

jobhost::Service headlessService(const jobhost::Job& job, const SvcOptions& options) {
  jobhost::Service service;
  service.metadata = jobhost::volcano::ownedBy(job, job.metadata.name);
  service.spec.clusterIP = "None";
  service.spec.selector = jobPodLabels(job);
  service.spec.publishNotReadyAddresses = options.publishNotReadyAddresses;
  return service;
}

jobhost::NetworkPolicy jobNetworkPolicy(const jobhost::Job& job) {
  jobhost::NetworkPolicy policy;
  policy.metadata = jobhost::volcano::ownedBy(job, job.metadata.name);
  policy.spec.podSelector.matchLabels = jobPodLabels(job);
  jobhost::NetworkPolicyPeer& peer = policy.spec.ingress.emplace_back().from.emplace_back();
  peer.podSelector = jobhost::LabelSelector{policy.spec.podSelector.matchLabels, {}};
  policy.spec.policyTypes = {"Ingress"};
  return policy;
}

void appendSvcComponents(const jobhost::Job& job, const SvcOptions& options, jobhost::Components& out) {
  out.configMaps.push_back(hostsConfigMap(job));
  out.services.push_back(headlessService(job, options));
  if (!options.disableNetworkPolicy) out.networkPolicies.push_back(jobNetworkPolicy(job));
}

}  // namespace svc
