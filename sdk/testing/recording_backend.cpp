// RecordingBackend: records pod creations, the PodGroup name and applied objects; what exists is
// always answered by the sim cluster itself (deletions, garbage collection).
#include "recording_backend.h"

namespace jobhost::testing {
namespace {

template <class T>
void upsert(std::vector<T>& into, const std::vector<T>& objects) {
  for (const auto& o : objects) {
    bool replaced = false;
    for (auto& e : into)
      if (e.metadata.name == o.metadata.name) {
        e = o;
        replaced = true;
      }
    if (!replaced) into.push_back(o);
  }
}

template <class T>
std::vector<T> existing(const std::vector<T>& applied, SimCluster& sim, const std::string& ns, ObjectKind kind) {
  std::vector<T> out;
  for (const auto& o : applied)
    if (o.metadata.namespace_ == ns && sim.objectExists(ns, kind, o.metadata.name)) out.push_back(o);
  return out;
}

}  // namespace

std::shared_ptr<const Pod> RecordingBackend::created(const std::string& name) const {
  std::lock_guard lock(mutex_);
  auto it = pods_.find(name);
  return it == pods_.end() ? nullptr : it->second;
}

int RecordingBackend::creations(const std::string& name) const {
  std::lock_guard lock(mutex_);
  auto it = creations_.find(name);
  return it == creations_.end() ? 0 : it->second;
}

std::string RecordingBackend::podGroupName() const {
  std::lock_guard lock(mutex_);
  return podGroup_;
}

ClusterStatus RecordingBackend::createPod(Pod pod, PodState* created) {
  auto asCreated = std::make_shared<const Pod>(pod);
  ClusterStatus st = sim_.createPod(std::move(pod), created);
  if (st.ok()) {
    std::lock_guard lock(mutex_);
    const std::string& name = asCreated->metadata.name;
    ++creations_[name];
    pods_[name] = std::move(asCreated);
  }
  return st;
}

ClusterStatus RecordingBackend::createPodGroup(const PodGroup& pg) {
  ClusterStatus st = sim_.createPodGroup(pg);
  if (st.ok()) {
    std::lock_guard lock(mutex_);
    podGroup_ = pg.metadata.name;
  }
  return st;
}

ClusterStatus RecordingBackend::applyObjects(const std::string& ns, const Components& objects) {
  ClusterStatus st = sim_.applyObjects(ns, objects);
  if (st.ok()) {
    Components stamped = objects;
    for (auto& o : stamped.configMaps) o.metadata.namespace_ = ns;
    for (auto& o : stamped.secrets) o.metadata.namespace_ = ns;
    for (auto& o : stamped.services) o.metadata.namespace_ = ns;
    for (auto& o : stamped.networkPolicies) o.metadata.namespace_ = ns;
    std::lock_guard lock(mutex_);
    upsert(applied_.configMaps, stamped.configMaps);
    upsert(applied_.secrets, stamped.secrets);
    upsert(applied_.services, stamped.services);
    upsert(applied_.networkPolicies, stamped.networkPolicies);
  }
  return st;
}

Components RecordingBackend::objects(const std::string& ns) {
  std::lock_guard lock(mutex_);
  Components out;
  out.configMaps = existing(applied_.configMaps, sim_, ns, ObjectKind::ConfigMap);
  out.secrets = existing(applied_.secrets, sim_, ns, ObjectKind::Secret);
  out.services = existing(applied_.services, sim_, ns, ObjectKind::Service);
  out.networkPolicies = existing(applied_.networkPolicies, sim_, ns, ObjectKind::NetworkPolicy);
  return out;
}

}  // namespace jobhost::testing
