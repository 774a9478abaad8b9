// BackendResourceClient: fills namespace and owner reference, maps NotFound on remove to success.
#include "host/controller/backend_resource_client.h"

#include "host/workload/names.h"

namespace jobhost {
namespace {

void own(ObjectMeta& meta, const Job& job) {
  if (meta.namespace_.empty()) meta.namespace_ = job.metadata.namespace_;
  if (meta.ownerReferences.empty()) meta.ownerReferences.push_back(jobOwnerReference(job));
}

}  // namespace

Status BackendResourceClient::apply(const Components& objects) {
  Components owned = objects;
  for (auto& o : owned.configMaps) own(o.metadata, job_);
  for (auto& o : owned.secrets) own(o.metadata, job_);
  for (auto& o : owned.services) own(o.metadata, job_);
  for (auto& o : owned.networkPolicies) own(o.metadata, job_);
  ClusterStatus st = backend_.applyObjects(job_.metadata.namespace_, owned);
  return st.ok() ? Status::ok() : Status::error(st.message);
}

Status BackendResourceClient::remove(ObjectKind kind, const std::string& name) {
  ClusterStatus st = backend_.removeObject(job_.metadata.namespace_, kind, name);
  if (st.ok() || st.code == ClusterErrc::NotFound) return Status::ok();
  return Status::error(st.message);
}

std::optional<ConfigMap> BackendResourceClient::getConfigMap(const std::string& name) {
  return backend_.getConfigMap(job_.metadata.namespace_, name);
}

std::optional<Secret> BackendResourceClient::getSecret(const std::string& name) {
  return backend_.getSecret(job_.metadata.namespace_, name);
}

bool BackendResourceClient::exists(ObjectKind kind, const std::string& name) {
  return backend_.objectExists(job_.metadata.namespace_, kind, name);
}

}  // namespace jobhost
