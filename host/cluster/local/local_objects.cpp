// LocalBackend's object store (PVCs, ConfigMaps, Secrets, Services, NetworkPolicies), garbage
// collection by owner, and the local extras (job pods, process ids, kill all).
#include <filesystem>
#include <functional>
#include <future>

#include "host/cluster/local/local_backend.h"
#include "host/cluster/local/local_backend_internal.h"

namespace jobhost {
using namespace local;

namespace {

bool ownedBy(const ObjectMeta& meta, const std::string& uid) {
  for (const auto& ref : meta.ownerReferences)
    if (ref.uid == uid) return true;
  return false;
}

template <class Map>
void eraseOwned(Map& map, const std::string& ns, const std::string& uid,
                const std::function<void(const std::string& key)>& onErase = {}) {
  for (auto it = map.begin(); it != map.end();) {
    if (it->second.metadata.namespace_ == ns && ownedBy(it->second.metadata, uid)) {
      if (onErase) onErase(it->first);
      it = map.erase(it);
    } else {
      ++it;
    }
  }
}

}  // namespace

ClusterStatus LocalBackend::createPvc(const std::string& ns, const std::string& name, const std::string& ownerUid) {
  std::lock_guard lock(mutex_);
  if (!pvcs_.emplace(objectKey(ns, name), ownerUid).second)
    return ClusterStatus::fail(ClusterErrc::AlreadyExists, "persistentvolumeclaims \"" + name + "\" already exists");
  std::error_code ec;
  std::filesystem::create_directories(workDir_ + "/" + (ns.empty() ? "default" : ns) + "/pvc/" + name, ec);
  if (ec) return ClusterStatus::fail(ClusterErrc::Failed, "cannot create the volume of claim " + name + ": " + ec.message());
  return ClusterStatus::success();
}

bool LocalBackend::pvcExists(const std::string& ns, const std::string& name) {
  std::lock_guard lock(mutex_);
  return pvcs_.count(objectKey(ns, name)) > 0;
}

ClusterStatus LocalBackend::applyObjects(const std::string& ns, const Components& objects) {
  std::vector<std::pair<std::string, std::string>> refreshed;  // kind, name
  std::lock_guard lock(mutex_);
  for (auto cm : objects.configMaps) {
    cm.metadata.namespace_ = ns;
    refreshed.emplace_back("ConfigMap", cm.metadata.name);
    const std::string key = objectKey(ns, cm.metadata.name);
    configMaps_[key] = std::move(cm);
    configMapVersions_[key] = ++configMapWrites_;
  }
  for (auto s : objects.secrets) {
    s.metadata.namespace_ = ns;
    refreshed.emplace_back("Secret", s.metadata.name);
    secrets_[objectKey(ns, s.metadata.name)] = std::move(s);
  }
  for (auto svc : objects.services) {
    svc.metadata.namespace_ = ns;
    for (const auto& [key, p] : pods_) {
      if (!selects(svc, *p->state.object)) continue;
      if (auto it = hosts_.find(p->jobKey); it != hosts_.end())
        if (Status st = it->second.add(p->address, serviceHostNames(svc)); !st)
          return ClusterStatus::fail(ClusterErrc::Failed, st.message());
    }
    services_[objectKey(ns, svc.metadata.name)] = std::move(svc);
  }
  for (auto np : objects.networkPolicies) {
    np.metadata.namespace_ = ns;
    networkPolicies_[objectKey(ns, np.metadata.name)] = std::move(np);
  }
  // Running pods see ConfigMap/Secret updates in their (directory) volumes, as on a cluster.
  for (const auto& [key, p] : pods_) {
    if (!p->run || p->state.namespace_() != ns) continue;
    for (const auto& object : refreshed)
      boost::asio::post(io_, [this, layout = p->layout, pod = p->state.object, object, ns] {
        refreshVolumes(layout, *pod, object.first, object.second, lookupIn(ns));
      });
  }
  return ClusterStatus::success();
}

ClusterStatus LocalBackend::removeObject(const std::string& ns, ObjectKind kind, const std::string& name) {
  std::lock_guard lock(mutex_);
  const std::string key = objectKey(ns, name);
  size_t erased = 0;
  switch (kind) {
    case ObjectKind::ConfigMap:
      erased = configMaps_.erase(key);
      configMapVersions_.erase(key);
      break;
    case ObjectKind::Secret: erased = secrets_.erase(key); break;
    case ObjectKind::Service: erased = services_.erase(key); break;
    case ObjectKind::NetworkPolicy: erased = networkPolicies_.erase(key); break;
  }
  if (erased == 0) return ClusterStatus::fail(ClusterErrc::NotFound, "\"" + name + "\" not found");
  return ClusterStatus::success();
}

std::optional<ConfigMap> LocalBackend::getConfigMap(const std::string& ns, const std::string& name) {
  std::lock_guard lock(mutex_);
  auto it = configMaps_.find(objectKey(ns, name));
  if (it == configMaps_.end()) return std::nullopt;
  return it->second;
}

std::optional<Secret> LocalBackend::getSecret(const std::string& ns, const std::string& name) {
  std::lock_guard lock(mutex_);
  auto it = secrets_.find(objectKey(ns, name));
  if (it == secrets_.end()) return std::nullopt;
  return it->second;
}

bool LocalBackend::hasConfigMapData(const std::string& ns, const std::string& name,
                                    const std::map<std::string, std::string>& data) {
  std::lock_guard lock(mutex_);
  auto it = configMaps_.find(objectKey(ns, name));
  return it != configMaps_.end() && it->second.data == data;
}

uint64_t LocalBackend::configMapVersion(const std::string& ns, const std::string& name) {
  std::lock_guard lock(mutex_);
  auto it = configMapVersions_.find(objectKey(ns, name));
  return it == configMapVersions_.end() ? 0 : it->second;
}

bool LocalBackend::objectExists(const std::string& ns, ObjectKind kind, const std::string& name) {
  std::lock_guard lock(mutex_);
  const std::string key = objectKey(ns, name);
  switch (kind) {
    case ObjectKind::ConfigMap: return configMaps_.count(key) > 0;
    case ObjectKind::Secret: return secrets_.count(key) > 0;
    case ObjectKind::Service: return services_.count(key) > 0;
    case ObjectKind::NetworkPolicy: return networkPolicies_.count(key) > 0;
  }
  return false;
}

void LocalBackend::deleteOwnedBy(const std::string& ns, const std::string& ownerUid) {
  std::lock_guard lock(mutex_);
  std::vector<PodEntry*> doomed;
  for (auto& [key, p] : pods_)
    if (p->state.namespace_() == ns && ownedBy(p->state.object->metadata, ownerUid)) doomed.push_back(p.get());
  for (PodEntry* p : doomed) beginDeletion(*p);
  for (auto it = groups_.begin(); it != groups_.end();) {
    const ObjectMeta& meta = it->second->pg.metadata;
    if (meta.namespace_ == ns && ownedBy(meta, ownerUid))
      it = groups_.erase(it);
    else
      ++it;
  }
  for (auto it = pvcs_.begin(); it != pvcs_.end();) {
    if (it->first.rfind(ns + "/", 0) == 0 && it->second == ownerUid)
      it = pvcs_.erase(it);
    else
      ++it;
  }
  eraseOwned(configMaps_, ns, ownerUid, [this](const std::string& key) { configMapVersions_.erase(key); });
  eraseOwned(secrets_, ns, ownerUid);
  eraseOwned(services_, ns, ownerUid);
  eraseOwned(networkPolicies_, ns, ownerUid);
  requestSchedule();
}

std::vector<PodState> LocalBackend::jobPods(const std::string& ns, const std::string& job) const {
  std::lock_guard lock(mutex_);
  std::vector<std::pair<uint64_t, PodState>> found;
  for (const auto& [key, p] : pods_)
    if (p->jobKey == objectKey(ns, job)) found.emplace_back(p->seq, p->state);
  std::sort(found.begin(), found.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<PodState> out;
  for (auto& [seq, state] : found) out.push_back(std::move(state));
  return out;
}

std::vector<pid_t> LocalBackend::processIds() {
  std::promise<std::vector<pid_t>> result;
  auto future = result.get_future();
  boost::asio::post(io_, [this, &result] {
    std::vector<std::shared_ptr<PodRun>> runs;
    {
      std::lock_guard lock(mutex_);
      for (const auto& [key, p] : pods_)
        if (p->run) runs.push_back(p->run);
    }
    std::vector<pid_t> pids;
    for (const auto& run : runs)
      for (pid_t pid : run->processIds()) pids.push_back(pid);
    result.set_value(std::move(pids));
  });
  return future.get();
}

void LocalBackend::killAll() {
  boost::asio::post(io_, [this] {
    std::vector<std::shared_ptr<PodRun>> runs;
    {
      std::lock_guard lock(mutex_);
      for (const auto& [key, p] : pods_)
        if (p->run) runs.push_back(p->run);
    }
    for (const auto& run : runs) run->kill();
  });
}

}  // namespace jobhost
