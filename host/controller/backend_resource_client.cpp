// BackendResourceClient: fills namespace and owner reference (copying only objects that lack one),
// maps NotFound on remove to success, and compares ConfigMap data where the backend keeps it.
#include "host/controller/backend_resource_client.h"

#include "host/workload/names.h"
#include "jobhost/volcano.h"

namespace jobhost {
namespace {

template <class Objects, class F>  // Objects: Components or const Components
void forEachMeta(Objects& objects, F&& f) {
  for (auto& o : objects.configMaps) f(o.metadata);
  for (auto& o : objects.secrets) f(o.metadata);
  for (auto& o : objects.services) f(o.metadata);
  for (auto& o : objects.networkPolicies) f(o.metadata);
}

}  // namespace

Status BackendResourceClient::apply(const Components& objects) {
  bool owned = true;
  forEachMeta(objects, [&](const ObjectMeta& m) { owned = owned && !m.namespace_.empty() && !m.ownerReferences.empty(); });
  ClusterStatus st;
  if (owned) {
    st = backend_.applyObjects(job_.metadata.namespace_, objects);
  } else {
    Components copy = objects;
    forEachMeta(copy, [&](ObjectMeta& m) {
      if (m.namespace_.empty()) m.namespace_ = job_.metadata.namespace_;
      if (m.ownerReferences.empty()) m.ownerReferences.push_back(volcano::controllerRef(job_));
    });
    st = backend_.applyObjects(job_.metadata.namespace_, copy);
  }
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

bool BackendResourceClient::hasConfigMapData(const std::string& name, const std::map<std::string, std::string>& data) {
  return backend_.hasConfigMapData(job_.metadata.namespace_, name, data);
}

uint64_t BackendResourceClient::configMapVersion(const std::string& name) {
  return backend_.configMapVersion(job_.metadata.namespace_, name);
}

}  // namespace jobhost
