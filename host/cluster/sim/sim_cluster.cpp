// SimCluster: backend calls, pod lifecycle (bound -> Running -> ready -> restarts -> exit) on
// the clock, script actions, garbage collection, and batched event delivery.
#include "host/cluster/sim/sim_cluster.h"

#include <algorithm>

namespace jobhost {
namespace {

std::string keyOf(const std::string& ns, const std::string& name) { return ns + "/" + name; }

/// keyOf in a per-thread buffer, for lookups on hot paths that must not allocate.
const std::string& lookupKey(const std::string& ns, const std::string& name) {
  thread_local std::string key;
  key.assign(ns).append(1, '/').append(name);
  return key;
}

bool ownedBy(const ObjectMeta& meta, const std::string& uid) {
  return std::any_of(meta.ownerReferences.begin(), meta.ownerReferences.end(),
                     [&](const OwnerReference& r) { return r.uid == uid; });
}

}  // namespace

SimCluster::SimCluster(Clock& clock, const SimBackendConfig& config) : clock_(clock) {
  for (int i = 0; i < config.nodes; ++i) {
    Node n;
    n.name = "node-" + std::to_string(i);
    n.capacity = {config.cpu.milliValue(), config.memory.milliValue(), config.gpu};
    nodes_.push_back(std::move(n));
  }
  behaviour_ = [](const Pod&, int) { return PodBehaviour{}; };
}

SimCluster::~SimCluster() { lifeline_->end(); }

void SimCluster::setBehaviour(PodBehaviourFn fn) {
  std::lock_guard lock(mutex_);
  behaviour_ = std::move(fn);
}

void SimCluster::setUnschedulableObserver(std::function<void(const PodGroup&)> fn) {
  std::lock_guard lock(mutex_);
  unschedulableObserver_ = std::move(fn);
}

void SimCluster::setListener(ClusterListener* listener) {
  std::lock_guard lock(mutex_);
  listener_ = listener;
}

SimResources SimCluster::amountsOf(const ResourceList& list) {
  SimResources r;
  if (auto it = list.find("cpu"); it != list.end()) r.cpuMilli = it->second.milliValue();
  if (auto it = list.find("memory"); it != list.end()) r.memoryMilli = it->second.milliValue();
  if (auto it = list.find("nvidia.com/gpu"); it != list.end()) r.gpu = it->second.value();
  return r;
}

SimResources SimCluster::requestOf(const Pod& pod) {
  SimResources sum;
  for (const auto& c : pod.spec.containers) sum += amountsOf(c.resources.requests);
  for (const auto& c : pod.spec.initContainers) {
    SimResources i = amountsOf(c.resources.requests);
    sum.cpuMilli = std::max(sum.cpuMilli, i.cpuMilli);
    sum.memoryMilli = std::max(sum.memoryMilli, i.memoryMilli);
    sum.gpu = std::max(sum.gpu, i.gpu);
  }
  return sum;
}

ClusterStatus SimCluster::createPod(Pod pod, PodState* created) {
  std::lock_guard lock(mutex_);
  std::string key = keyOf(pod.metadata.namespace_, pod.metadata.name);
  if (failCreates_ > 0) {
    --failCreates_;
    return ClusterStatus::fail(ClusterErrc::Failed, "pods \"" + pod.metadata.name + "\": simulated server error");
  }
  if (pods_.count(key)) return ClusterStatus::fail(ClusterErrc::AlreadyExists, "pods \"" + pod.metadata.name + "\" already exists");
  int incarnation = ++incarnations_[key];
  auto object = std::make_shared<Pod>(std::move(pod));
  const std::string& ns = object->metadata.namespace_;
  object->metadata.uid = "uid-" + object->metadata.name + "-" + std::to_string(incarnation);
  object->metadata.creationTimestamp = clock_.now();
  object->status = PodStatus{};
  SimPod sp;
  for (const auto& c : object->spec.containers) sp.state.status.containerStatuses.push_back(ContainerStatus{c.name, false, 0, false, {}, {}});
  sp.state.resourceVersion = ++resourceVersion_;
  sp.request = requestOf(*object);
  sp.behaviour = behaviour_(*object, incarnation);
  sp.seq = ++podSeq_;
  if (auto it = object->metadata.annotations.find("scheduling.k8s.io/group-name"); it != object->metadata.annotations.end())
    sp.group = keyOf(ns, it->second);
  sp.state.object = std::move(object);
  if (!sp.group.empty()) groupPods_[sp.group].insert({sp.seq, key});
  ClusterEvent ev;
  ev.type = ClusterEvent::Type::PodAdded;
  ev.pod = sp.state;
  events_.push_back(std::move(ev));
  if (created) *created = sp.state;
  pods_.emplace(key, std::move(sp));
  dirty_ = true;
  return ClusterStatus::success();
}

void SimCluster::releaseResources(SimPod& pod) {
  if (!pod.holdsResources) return;
  nodes_[static_cast<size_t>(pod.node)].used -= pod.request;
  pod.holdsResources = false;
}

void SimCluster::removePod(const std::string& key) {
  auto it = pods_.find(key);
  if (it == pods_.end()) return;
  SimPod& pod = it->second;
  releaseResources(pod);
  if (pod.node >= 0) --nodes_[static_cast<size_t>(pod.node)].pods;
  if (!pod.group.empty()) {
    auto g = groupPods_.find(pod.group);
    if (g != groupPods_.end()) {
      g->second.erase({pod.seq, key});
      if (g->second.empty()) groupPods_.erase(g);
    }
  }
  ClusterEvent ev;
  ev.type = ClusterEvent::Type::PodDeleted;
  ev.pod = std::move(pod.state);
  ev.pod.deletionTimestamp = clock_.now();
  events_.push_back(std::move(ev));
  pods_.erase(it);
  dirty_ = true;
}

ClusterStatus SimCluster::deletePod(const std::string& ns, const std::string& name) {
  std::lock_guard lock(mutex_);
  std::string key = keyOf(ns, name);
  if (!pods_.count(key)) return ClusterStatus::fail(ClusterErrc::NotFound, "pods \"" + name + "\" not found");
  removePod(key);
  return ClusterStatus::success();
}

void SimCluster::emitPodUpdate(SimPod& pod, PodPhase oldPhase, uint64_t oldVersion) {
  pod.state.resourceVersion = ++resourceVersion_;
  ClusterEvent ev;
  ev.type = ClusterEvent::Type::PodUpdated;
  ev.pod = pod.state;
  ev.oldPodPhase = oldPhase;
  ev.oldResourceVersion = oldVersion;
  events_.push_back(std::move(ev));
}

ClusterStatus SimCluster::annotatePod(const std::string& ns, const std::string& name, const std::string& key,
                                      const std::string& value) {
  std::lock_guard lock(mutex_);
  auto it = pods_.find(lookupKey(ns, name));
  if (it == pods_.end()) return ClusterStatus::fail(ClusterErrc::NotFound, "pods \"" + name + "\" not found");
  SimPod& pod = it->second;
  auto object = std::make_shared<Pod>(*pod.state.object);
  object->metadata.annotations[key] = value;
  pod.state.object = std::move(object);
  emitPodUpdate(pod, pod.state.status.phase, pod.state.resourceVersion);
  return ClusterStatus::success();
}

ClusterStatus SimCluster::createPodGroup(const PodGroup& pg) {
  std::lock_guard lock(mutex_);
  std::string key = keyOf(pg.metadata.namespace_, pg.metadata.name);
  if (groups_.count(key)) return ClusterStatus::fail(ClusterErrc::AlreadyExists, "podgroups \"" + pg.metadata.name + "\" already exists");
  SimGroup g;
  g.pg = pg;
  g.pg.metadata.uid = "uid-pg-" + pg.metadata.name;
  g.pg.metadata.creationTimestamp = clock_.now();
  g.pg.status = {};
  g.createdAt = clock_.now();
  armScheduleTimeout(g);
  groups_.emplace(key, std::move(g));
  dirty_ = true;
  return ClusterStatus::success();
}

ClusterStatus SimCluster::updatePodGroupSpec(const PodGroup& pg) {
  std::lock_guard lock(mutex_);
  auto it = groups_.find(lookupKey(pg.metadata.namespace_, pg.metadata.name));
  if (it == groups_.end()) return ClusterStatus::fail(ClusterErrc::NotFound, "podgroups \"" + pg.metadata.name + "\" not found");
  const bool newTimeout = it->second.pg.spec.scheduleTimeoutSeconds != pg.spec.scheduleTimeoutSeconds;
  it->second.pg.spec = pg.spec;
  if (newTimeout) armScheduleTimeout(it->second);
  dirty_ = true;
  return ClusterStatus::success();
}

ClusterStatus SimCluster::deletePodGroup(const std::string& ns, const std::string& name) {
  std::lock_guard lock(mutex_);
  if (!groups_.erase(lookupKey(ns, name))) return ClusterStatus::fail(ClusterErrc::NotFound, "podgroups \"" + name + "\" not found");
  dirty_ = true;
  return ClusterStatus::success();
}

std::optional<PodGroup> SimCluster::getPodGroup(const std::string& ns, const std::string& name) {
  std::lock_guard lock(mutex_);
  auto it = groups_.find(lookupKey(ns, name));
  if (it == groups_.end()) return std::nullopt;
  return it->second.pg;
}

std::optional<std::string> SimCluster::podGroupPhase(const std::string& ns, const std::string& name) {
  std::lock_guard lock(mutex_);
  auto it = groups_.find(lookupKey(ns, name));
  if (it == groups_.end()) return std::nullopt;
  return it->second.pg.status.phase;
}

ClusterStatus SimCluster::createPvc(const std::string& ns, const std::string& name, const std::string& ownerUid) {
  std::lock_guard lock(mutex_);
  if (!pvcs_.emplace(keyOf(ns, name), ownerUid).second)
    return ClusterStatus::fail(ClusterErrc::AlreadyExists, "persistentvolumeclaims \"" + name + "\" already exists");
  return ClusterStatus::success();
}

bool SimCluster::pvcExists(const std::string& ns, const std::string& name) {
  std::lock_guard lock(mutex_);
  return pvcs_.count(lookupKey(ns, name)) > 0;
}

void SimCluster::addPvc(const std::string& ns, const std::string& name) {
  std::lock_guard lock(mutex_);
  pvcs_.emplace(keyOf(ns, name), "");
}

ClusterStatus SimCluster::applyObjects(const std::string& ns, const Components& objects) {
  std::lock_guard lock(mutex_);
  Objects& o = objects_[ns];
  for (const auto& x : objects.configMaps) o.configMaps[x.metadata.name] = x;
  for (const auto& x : objects.secrets) o.secrets[x.metadata.name] = x;
  for (const auto& x : objects.services) o.services[x.metadata.name] = x;
  for (const auto& x : objects.networkPolicies) o.networkPolicies[x.metadata.name] = x;
  return ClusterStatus::success();
}

ClusterStatus SimCluster::removeObject(const std::string& ns, ObjectKind kind, const std::string& name) {
  std::lock_guard lock(mutex_);
  Objects& o = objects_[ns];
  size_t erased = 0;
  switch (kind) {
    case ObjectKind::ConfigMap: erased = o.configMaps.erase(name); break;
    case ObjectKind::Secret: erased = o.secrets.erase(name); break;
    case ObjectKind::Service: erased = o.services.erase(name); break;
    case ObjectKind::NetworkPolicy: erased = o.networkPolicies.erase(name); break;
  }
  if (!erased) return ClusterStatus::fail(ClusterErrc::NotFound, std::string(toString(kind)) + " \"" + name + "\" not found");
  return ClusterStatus::success();
}

std::optional<ConfigMap> SimCluster::getConfigMap(const std::string& ns, const std::string& name) {
  std::lock_guard lock(mutex_);
  auto& m = objects_[ns].configMaps;
  auto it = m.find(name);
  return it == m.end() ? std::nullopt : std::optional<ConfigMap>(it->second);
}

std::optional<Secret> SimCluster::getSecret(const std::string& ns, const std::string& name) {
  std::lock_guard lock(mutex_);
  auto& m = objects_[ns].secrets;
  auto it = m.find(name);
  return it == m.end() ? std::nullopt : std::optional<Secret>(it->second);
}

bool SimCluster::hasConfigMapData(const std::string& ns, const std::string& name,
                                  const std::map<std::string, std::string>& data) {
  std::lock_guard lock(mutex_);
  auto& m = objects_[ns].configMaps;
  auto it = m.find(name);
  return it != m.end() && it->second.data == data;
}

bool SimCluster::objectExists(const std::string& ns, ObjectKind kind, const std::string& name) {
  std::lock_guard lock(mutex_);
  Objects& o = objects_[ns];
  switch (kind) {
    case ObjectKind::ConfigMap: return o.configMaps.count(name) > 0;
    case ObjectKind::Secret: return o.secrets.count(name) > 0;
    case ObjectKind::Service: return o.services.count(name) > 0;
    case ObjectKind::NetworkPolicy: return o.networkPolicies.count(name) > 0;
  }
  return false;
}

void SimCluster::deleteOwnedBy(const std::string& ns, const std::string& ownerUid) {
  std::lock_guard lock(mutex_);
  std::vector<std::string> doomed;
  for (const auto& [key, pod] : pods_)
    if (pod.state.namespace_() == ns && ownedBy(pod.state.object->metadata, ownerUid)) doomed.push_back(key);
  std::sort(doomed.begin(), doomed.end());
  for (const auto& key : doomed) removePod(key);
  std::erase_if(groups_, [&](const auto& g) { return g.second.pg.metadata.namespace_ == ns && ownedBy(g.second.pg.metadata, ownerUid); });
  std::erase_if(pvcs_, [&](const auto& p) { return p.second == ownerUid && p.first.rfind(ns + "/", 0) == 0; });
  Objects& o = objects_[ns];
  std::erase_if(o.configMaps, [&](const auto& x) { return ownedBy(x.second.metadata, ownerUid); });
  std::erase_if(o.secrets, [&](const auto& x) { return ownedBy(x.second.metadata, ownerUid); });
  std::erase_if(o.services, [&](const auto& x) { return ownedBy(x.second.metadata, ownerUid); });
  std::erase_if(o.networkPolicies, [&](const auto& x) { return ownedBy(x.second.metadata, ownerUid); });
  dirty_ = true;
}

void SimCluster::echoJobChange(const std::string& ns, const std::string& name) {
  std::lock_guard lock(mutex_);
  ClusterEvent ev;
  ev.type = ClusterEvent::Type::JobChanged;
  ev.namespace_ = ns;
  ev.jobName = name;
  events_.push_back(std::move(ev));
}

void SimCluster::scheduleDue(int64_t delayMs, Due due) {
  clock_.schedule(delayMs, [this, life = lifeline_, due = std::move(due)] {
    life->run([&] {
      std::lock_guard lock(mutex_);
      due_.push_back(due);
    });
  });
}

void SimCluster::evictPod(const std::string& ns, const std::string& name) {
  std::lock_guard lock(mutex_);
  due_.push_back(Due{Due::Kind::Evict, keyOf(ns, name), "", 0});
}

void SimCluster::loseNode(int index) {
  std::lock_guard lock(mutex_);
  due_.push_back(Due{Due::Kind::LoseNode, "", "", index});
}

void SimCluster::failPodCreates(int count) {
  std::lock_guard lock(mutex_);
  failCreates_ = count;
}

void SimCluster::startPod(SimPod& pod) {
  PodPhase old = pod.state.status.phase;
  uint64_t oldVersion = pod.state.resourceVersion;
  const PodBehaviour& b = pod.behaviour;
  pod.state.status.phase = PodPhase::Running;
  for (auto& c : pod.state.status.containerStatuses) {
    c.running = true;
    c.ready = b.readyAfterMs == 0;
  }
  for (const auto& c : pod.state.object->spec.initContainers)
    pod.state.status.initContainerStatuses.push_back(
        ContainerStatus{c.name, true, 0, false, ContainerStateTerminated{0, 0, "Completed", ""}, {}});
  emitPodUpdate(pod, old, oldVersion);
  std::string key = keyOf(pod.state.namespace_(), pod.state.name());
  if (b.readyAfterMs > 0) scheduleDue(b.readyAfterMs, Due{Due::Kind::Ready, key, pod.state.uid(), 0});
  for (int64_t at : b.restartsAtMs)
    if (!b.runForMs || at < *b.runForMs) scheduleDue(at, Due{Due::Kind::Restart, key, pod.state.uid(), 0});
  if (b.runForMs) scheduleDue(*b.runForMs, Due{Due::Kind::Exit, key, pod.state.uid(), 0});
}

void SimCluster::exitPod(SimPod& pod) {
  PodPhase old = pod.state.status.phase;
  uint64_t oldVersion = pod.state.resourceVersion;
  int32_t code = pod.behaviour.exitCode;
  pod.state.status.phase = code == 0 ? PodPhase::Succeeded : PodPhase::Failed;
  bool first = true;
  for (auto& c : pod.state.status.containerStatuses) {
    c.running = false;
    c.ready = false;
    int32_t exit = first ? code : 0;
    c.terminated = ContainerStateTerminated{exit, 0, exit == 0 ? "Completed" : "Error", ""};
    first = false;
  }
  releaseResources(pod);
  emitPodUpdate(pod, old, oldVersion);
  dirty_ = true;
}

void SimCluster::applyDue(const Due& due) {
  if (due.kind == Due::Kind::LoseNode) {
    if (due.node < 0 || static_cast<size_t>(due.node) >= nodes_.size() || nodes_[static_cast<size_t>(due.node)].lost) return;
    nodes_[static_cast<size_t>(due.node)].lost = true;
    std::vector<std::string> doomed;
    for (const auto& [key, pod] : pods_)
      if (pod.node == due.node) doomed.push_back(key);
    std::sort(doomed.begin(), doomed.end());
    for (const auto& key : doomed) removePod(key);
    dirty_ = true;
    return;
  }
  if (due.kind == Due::Kind::Evict) {
    removePod(due.key);
    return;
  }
  auto it = pods_.find(due.key);
  if (it == pods_.end() || it->second.state.uid() != due.uid) return;
  SimPod& pod = it->second;
  PodStatus& st = pod.state.status;
  switch (due.kind) {
    case Due::Kind::Start:
      if (st.phase == PodPhase::Pending) startPod(pod);
      break;
    case Due::Kind::Ready:
      if (st.phase == PodPhase::Running) {
        uint64_t v = pod.state.resourceVersion;
        for (auto& c : st.containerStatuses) c.ready = true;
        emitPodUpdate(pod, PodPhase::Running, v);
      }
      break;
    case Due::Kind::Restart:
      if (st.phase == PodPhase::Running && !st.containerStatuses.empty()) {
        uint64_t v = pod.state.resourceVersion;
        auto& c = st.containerStatuses[0];
        ++c.restartCount;
        c.lastTerminated = ContainerStateTerminated{pod.behaviour.exitCode == 0 ? 1 : pod.behaviour.exitCode, 0, "Error", ""};
        if (pod.behaviour.readyAfterMs > 0) {
          c.ready = false;
          scheduleDue(pod.behaviour.readyAfterMs, Due{Due::Kind::Ready, due.key, due.uid, 0});
        }
        emitPodUpdate(pod, PodPhase::Running, v);
      }
      break;
    case Due::Kind::Exit:
      if (st.phase == PodPhase::Running) exitPod(pod);
      break;
    case Due::Kind::Evict:
    case Due::Kind::LoseNode:
      break;
  }
}

bool SimCluster::deliver() {
  std::vector<ClusterEvent> batch;
  std::vector<PodGroup> unschedulable;
  ClusterListener* listener;
  std::function<void(const PodGroup&)> observer;
  bool applied;
  {
    std::lock_guard lock(mutex_);
    std::vector<Due> due;
    due.swap(due_);
    for (const auto& d : due) applyDue(d);
    applied = !due.empty();
    batch.swap(events_);
    unschedulable.swap(unschedulable_);
    listener = listener_;
    observer = unschedulableObserver_;
  }
  if (observer)
    for (const auto& pg : unschedulable) observer(pg);
  delivered_.fetch_add(batch.size());
  if (!batch.empty() && listener) listener->onClusterEvents(batch);
  return applied || !batch.empty();
}

bool SimCluster::schedule() {
  std::lock_guard lock(mutex_);
  if (!dirty_) return false;
  dirty_ = false;
  schedulePass();
  return true;
}

std::optional<PodState> SimCluster::getPod(const std::string& ns, const std::string& name) {
  std::lock_guard lock(mutex_);
  auto it = pods_.find(lookupKey(ns, name));
  return it == pods_.end() ? std::nullopt : std::optional<PodState>(it->second.state);
}

std::vector<std::string> SimCluster::podNames() {
  std::lock_guard lock(mutex_);
  std::vector<std::string> out;
  for (const auto& [key, pod] : pods_) out.push_back(key);
  std::sort(out.begin(), out.end());
  return out;
}

std::string SimCluster::nodeOf(const std::string& ns, const std::string& name) {
  std::lock_guard lock(mutex_);
  auto it = pods_.find(lookupKey(ns, name));
  if (it == pods_.end() || it->second.node < 0) return "";
  return nodes_[static_cast<size_t>(it->second.node)].name;
}

size_t SimCluster::podCount() {
  std::lock_guard lock(mutex_);
  return pods_.size();
}

}  // namespace jobhost
