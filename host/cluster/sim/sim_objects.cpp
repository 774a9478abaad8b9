// SimCluster objects other than pods: PodGroups (in their job's lane, with the scheduler's order),
// PVCs, the plugins' ConfigMaps/Secrets/Services/NetworkPolicies, garbage collection, job echoes.
#include <algorithm>

#include "host/cluster/sim/sim_cluster.h"

namespace jobhost {
namespace {

bool ownedBy(const ObjectMeta& meta, const std::string& uid) {
  return std::any_of(meta.ownerReferences.begin(), meta.ownerReferences.end(),
                     [&](const OwnerReference& r) { return r.uid == uid; });
}

}  // namespace

ClusterStatus SimCluster::createPodGroup(const PodGroup& pg) {
  const size_t laneIndex = laneOfGroup(pg);
  Lane& lane = *lanes_[laneIndex];
  std::string key = objectKey(pg.metadata.namespace_, pg.metadata.name);
  std::lock_guard laneLock(lane.mutex);
  {
    IndexShard& index = shard(groupIndex_, key);
    std::lock_guard lock(index.mutex);
    Placement& place = index.byKey[key];
    if (place.lane >= 0)
      return ClusterStatus::fail(ClusterErrc::AlreadyExists, "podgroups \"" + pg.metadata.name + "\" already exists");
    place.lane = static_cast<int>(laneIndex);
  }
  SimGroup& g = lane.groups.try_emplace(key).first->second;
  g.pg = pg;
  if (g.pg.metadata.uid.empty()) g.pg.metadata.uid = "uid-pg-" + pg.metadata.name;
  g.pg.metadata.creationTimestamp = clock_.now();
  g.pg.status = {};
  g.createdAt = clock_.now();
  g.lane = laneIndex;
  armScheduleTimeout(g);
  {
    std::lock_guard lock(mutex_);
    groupOrder_.emplace(std::pair{g.createdAt, std::move(key)}, &g);
  }
  dirty_ = true;
  return ClusterStatus::success();
}

void SimCluster::eraseGroup(Lane& lane, const std::string& key) {
  auto it = lane.groups.find(key);
  if (it == lane.groups.end()) return;
  {
    std::lock_guard lock(mutex_);
    groupOrder_.erase(std::pair{it->second.createdAt, key});
  }
  unplace(shard(groupIndex_, key), key);
  lane.groups.erase(it);
}

ClusterStatus SimCluster::updatePodGroupSpec(const PodGroup& pg) {
  const ObjectRef ref{pg.metadata.namespace_, pg.metadata.name};
  auto updated = withGroup(ref, [&](Lane& lane, auto& entry) {
    SimGroup& g = entry.second;
    const bool newTimeout = g.pg.spec.scheduleTimeoutSeconds != pg.spec.scheduleTimeoutSeconds;
    g.pg.spec = pg.spec;
    if (newTimeout) armScheduleTimeout(g);
    if (auto members = lane.groupPods.find(ref); members != lane.groupPods.end()) members->second.changed = ++changeSeq_;
    g.placed = false;  // the next pass looks at it again
    dirty_ = true;
    return true;
  });
  return updated ? ClusterStatus::success()
                 : ClusterStatus::fail(ClusterErrc::NotFound, "podgroups \"" + pg.metadata.name + "\" not found");
}

ClusterStatus SimCluster::deletePodGroup(const std::string& ns, const std::string& name) {
  auto deleted = withGroup(ObjectRef{ns, name}, [&](Lane& lane, auto& entry) {
    eraseGroup(lane, std::string(entry.first));
    dirty_ = true;
    return true;
  });
  return deleted ? ClusterStatus::success() : ClusterStatus::fail(ClusterErrc::NotFound, "podgroups \"" + name + "\" not found");
}

std::optional<PodGroup> SimCluster::getPodGroup(const std::string& ns, const std::string& name) {
  return withGroup(ObjectRef{ns, name}, [](Lane&, auto& group) { return group.second.pg; });
}

std::optional<std::string> SimCluster::podGroupPhase(const std::string& ns, const std::string& name) {
  return withGroup(ObjectRef{ns, name}, [](Lane&, auto& group) { return group.second.pg.status.phase; });
}

ClusterStatus SimCluster::createPvc(const std::string& ns, const std::string& name, const std::string& ownerUid) {
  std::lock_guard lock(mutex_);
  if (!pvcs_.emplace(objectKey(ns, name), ownerUid).second)
    return ClusterStatus::fail(ClusterErrc::AlreadyExists, "persistentvolumeclaims \"" + name + "\" already exists");
  return ClusterStatus::success();
}

bool SimCluster::pvcExists(const std::string& ns, const std::string& name) {
  std::lock_guard lock(mutex_);
  return pvcs_.count(objectKey(ns, name)) > 0;
}

void SimCluster::addPvc(const std::string& ns, const std::string& name) {
  std::lock_guard lock(mutex_);
  pvcs_.emplace(objectKey(ns, name), "");
}

ClusterStatus SimCluster::applyObjects(const std::string& ns, const Components& objects) {
  std::unique_lock lock(objectsMutex_);
  Objects& o = objects_[ns];
  for (const auto& x : objects.configMaps) {
    o.configMaps[x.metadata.name] = x;
    o.configMapVersions[x.metadata.name] = ++configMapWrites_;
  }
  for (const auto& x : objects.secrets) o.secrets[x.metadata.name] = x;
  for (const auto& x : objects.services) o.services[x.metadata.name] = x;
  for (const auto& x : objects.networkPolicies) o.networkPolicies[x.metadata.name] = x;
  return ClusterStatus::success();
}

ClusterStatus SimCluster::removeObject(const std::string& ns, ObjectKind kind, const std::string& name) {
  std::unique_lock lock(objectsMutex_);
  size_t erased = 0;
  if (auto it = objects_.find(ns); it != objects_.end()) {
    Objects& o = it->second;
    switch (kind) {
      case ObjectKind::ConfigMap:
        erased = o.configMaps.erase(name);
        o.configMapVersions.erase(name);
        break;
      case ObjectKind::Secret: erased = o.secrets.erase(name); break;
      case ObjectKind::Service: erased = o.services.erase(name); break;
      case ObjectKind::NetworkPolicy: erased = o.networkPolicies.erase(name); break;
    }
  }
  if (!erased) return ClusterStatus::fail(ClusterErrc::NotFound, std::string(toString(kind)) + " \"" + name + "\" not found");
  return ClusterStatus::success();
}

std::optional<ConfigMap> SimCluster::getConfigMap(const std::string& ns, const std::string& name) {
  return findObject(ns, name, &Objects::configMaps);
}

std::optional<Secret> SimCluster::getSecret(const std::string& ns, const std::string& name) {
  return findObject(ns, name, &Objects::secrets);
}

bool SimCluster::hasConfigMapData(const std::string& ns, const std::string& name,
                                  const std::map<std::string, std::string>& data) {
  std::shared_lock lock(objectsMutex_);
  auto o = objects_.find(ns);
  if (o == objects_.end()) return false;
  auto it = o->second.configMaps.find(name);
  return it != o->second.configMaps.end() && it->second.data == data;
}

uint64_t SimCluster::configMapVersion(const std::string& ns, const std::string& name) {
  std::shared_lock lock(objectsMutex_);
  auto o = objects_.find(ns);
  if (o == objects_.end()) return 0;
  auto it = o->second.configMapVersions.find(name);
  return it == o->second.configMapVersions.end() ? 0 : it->second;
}

bool SimCluster::objectExists(const std::string& ns, ObjectKind kind, const std::string& name) {
  std::shared_lock lock(objectsMutex_);
  auto it = objects_.find(ns);
  if (it == objects_.end()) return false;
  const Objects& o = it->second;
  switch (kind) {
    case ObjectKind::ConfigMap: return o.configMaps.count(name) > 0;
    case ObjectKind::Secret: return o.secrets.count(name) > 0;
    case ObjectKind::Service: return o.services.count(name) > 0;
    case ObjectKind::NetworkPolicy: return o.networkPolicies.count(name) > 0;
  }
  return false;
}

void SimCluster::deleteOwnedBy(const std::string& ns, const std::string& ownerUid) {
  {
    auto locks = lockAllLanes();
    std::vector<std::pair<std::string, Lane*>> doomed;
    for (auto& lane : lanes_)
      for (const auto& [key, pod] : lane->pods)
        if (pod.state.namespace_() == ns && ownedBy(pod.state.object->metadata, ownerUid)) doomed.emplace_back(key, lane.get());
    std::sort(doomed.begin(), doomed.end());
    for (const auto& [key, lane] : doomed) removePod(*lane, key);
    for (auto& lane : lanes_) {
      std::vector<std::string> groups;
      for (const auto& [key, g] : lane->groups)
        if (g.pg.metadata.namespace_ == ns && ownedBy(g.pg.metadata, ownerUid)) groups.push_back(key);
      for (const auto& key : groups) eraseGroup(*lane, key);
    }
    std::lock_guard lock(mutex_);
    std::erase_if(pvcs_, [&](const auto& p) { return p.second == ownerUid && p.first.rfind(ns + "/", 0) == 0; });
  }
  {
    std::unique_lock lock(objectsMutex_);
    if (auto it = objects_.find(ns); it != objects_.end()) {
      Objects& o = it->second;
      std::erase_if(o.configMaps, [&](const auto& x) {
        if (!ownedBy(x.second.metadata, ownerUid)) return false;
        o.configMapVersions.erase(x.first);  // a version goes with its ConfigMap
        return true;
      });
      std::erase_if(o.secrets, [&](const auto& x) { return ownedBy(x.second.metadata, ownerUid); });
      std::erase_if(o.services, [&](const auto& x) { return ownedBy(x.second.metadata, ownerUid); });
      std::erase_if(o.networkPolicies, [&](const auto& x) { return ownedBy(x.second.metadata, ownerUid); });
    }
  }
  dirty_ = true;
}

void SimCluster::echoJobChange(const std::string& ns, const std::string& name) {
  Lane& lane = *lanes_[laneOfJob(ns, name)];
  std::lock_guard lock(lane.mutex);
  ClusterEvent& ev = emit(lane, ClusterEvent::Type::JobChanged);
  ev.namespace_ = ns;
  ev.jobName = name;
}

}  // namespace jobhost
