// SimCluster: lanes and the name index, and the pod calls of the backend (create, delete, annotate,
// inspect). Pod transitions are in sim_pod_lifecycle.cpp, other objects in sim_objects.cpp.
#include "host/cluster/sim/sim_cluster.h"

#include <algorithm>
#include <stdexcept>

#include "host/controller/request.h"
#include "host/workload/names.h"
#include "host/workload/resources.h"

namespace jobhost {
namespace {

constexpr size_t kIndexShards = 64;
const std::string kGroupNameKey("scheduling.k8s.io/group-name");

}  // namespace

SimCluster::SimCluster(Clock& clock, const SimBackendConfig& config)
    : clock_(clock), podIndex_(kIndexShards), groupIndex_(kIndexShards) {
  lanes_.push_back(std::make_unique<Lane>());
  for (int i = 0; i < config.nodes; ++i) {
    Node n;
    n.name = "node-" + std::to_string(i);
    n.capacity = {config.cpu.milliValue(), config.memory.milliValue(), config.gpu};
    nodes_.push_back(std::move(n));
  }
  behaviour_ = [](const Pod&, int) { return PodBehaviour{}; };
}

SimCluster::~SimCluster() { lifeline_->end(); }

void SimCluster::useLanes(size_t count, LaneRouter route) {
  for (auto& lane : lanes_)
    if (!lane->pods.empty() || !lane->groups.empty() || !lane->events.empty() || !lane->timeline.empty())
      throw std::logic_error("SimCluster::useLanes after objects were created");
  lanes_.clear();
  for (size_t i = 0; i < std::max<size_t>(count, 1); ++i) lanes_.push_back(std::make_unique<Lane>());
  route_ = std::move(route);
  laned_ = true;
}

void SimCluster::setBehaviour(PodBehaviourFn fn) { behaviour_ = std::move(fn); }

void SimCluster::setUnschedulableObserver(std::function<void(const PodGroup&)> fn) {
  std::lock_guard lock(mutex_);
  unschedulableObserver_ = std::move(fn);
}

void SimCluster::setListener(ClusterListener* listener) {
  std::lock_guard lock(mutex_);
  listener_ = listener;
}

size_t SimCluster::laneOfJob(std::string_view ns, std::string_view job) const {
  return route_ ? route_(ns, job) % lanes_.size() : 0;
}

size_t SimCluster::laneOfPod(const Pod& pod) const {
  const std::string* job = podJobName(pod);
  return laneOfJob(pod.metadata.namespace_, job ? std::string_view(*job) : std::string_view());
}

size_t SimCluster::laneOfGroup(const PodGroup& pg) const { return laneOfJob(pg.metadata.namespace_, podGroupJobName(pg)); }

void SimCluster::unplace(IndexShard& shard, const std::string& key) {
  std::lock_guard lock(shard.mutex);
  if (auto it = shard.byKey.find(key); it != shard.byKey.end()) it->second.lane = -1;
}

std::vector<std::unique_lock<std::mutex>> SimCluster::lockAllLanes() {
  std::vector<std::unique_lock<std::mutex>> locks;
  locks.reserve(lanes_.size());
  for (auto& lane : lanes_) locks.emplace_back(lane->mutex);
  return locks;
}

ClusterEvent& SimCluster::emit(Lane& lane, ClusterEvent::Type type) {
  ClusterEvent& ev = lane.events.emplace_back();
  ev.type = type;
  return ev;
}

SimResources SimCluster::amountsOf(const ResourceList& list) {
  SimResources r;
  if (auto it = list.find("cpu"); it != list.end()) r.cpuMilli = it->second.milliValue();
  if (auto it = list.find("memory"); it != list.end()) r.memoryMilli = it->second.milliValue();
  if (auto it = list.find("nvidia.com/gpu"); it != list.end()) r.gpu = it->second.value();
  return r;
}

SimResources SimCluster::requestOf(const Pod& pod) {
  // What the API server stores and the scheduler fits: requests defaulted from limits, the larger
  // of the containers' sum and any init container, sidecars included (resource.PodRequests).
  return amountsOf(podRequests(pod.spec));
}

ClusterStatus SimCluster::createPod(Pod pod, PodState* created) {
  for (int n = failCreates_.load(); n > 0;)
    if (failCreates_.compare_exchange_weak(n, n - 1))
      return ClusterStatus::fail(ClusterErrc::Failed, "pods \"" + pod.metadata.name + "\": simulated server error");
  const size_t laneIndex = laneOfPod(pod);
  Lane& lane = *lanes_[laneIndex];
  std::string key = objectKey(pod.metadata.namespace_, pod.metadata.name);
  std::lock_guard laneLock(lane.mutex);
  IndexShard& index = shard(podIndex_, key);
  int incarnation;
  {
    std::lock_guard lock(index.mutex);
    Placement& place = index.byKey[key];
    if (place.lane >= 0) return ClusterStatus::fail(ClusterErrc::AlreadyExists, "pods \"" + pod.metadata.name + "\" already exists");
    place.lane = static_cast<int>(laneIndex);
    incarnation = ++place.incarnations;
  }
  SimPod& sp = lane.pods.try_emplace(std::move(key)).first->second;
  auto object = std::make_shared<Pod>(std::move(pod));
  object->metadata.uid = "uid-" + object->metadata.name + "-" + std::to_string(incarnation);
  object->metadata.creationTimestamp = clock_.now();
  object->status = PodStatus{};
  sp.state.status.containerStatuses.reserve(object->spec.containers.size());
  for (const auto& c : object->spec.containers) sp.state.status.containerStatuses.push_back(ContainerStatus{c.name, false, 0, false, {}, {}});
  // In name order, as the kubelet lists them: status 0 (whose exit code Volcano reads) is the
  // alphabetically first container, and the script's exitCode goes to it.
  auto& statuses = sp.state.status.containerStatuses;
  if (statuses.size() > 1)
    std::stable_sort(statuses.begin(), statuses.end(), [](const ContainerStatus& a, const ContainerStatus& b) { return a.name < b.name; });
  sp.state.resourceVersion = ++resourceVersion_;
  sp.request = requestOf(*object);
  sp.behaviour = behaviour_(*object, incarnation);  // set before any pod exists
  sp.seq = ++podSeq_;
  sp.lane = laneIndex;
  const auto& ann = object->metadata.annotations;
  if (auto g = ann.find(kGroupNameKey); g != ann.end()) {
    auto group = lane.groupPods.find(ObjectRef{object->metadata.namespace_, g->second});
    if (group == lane.groupPods.end()) group = lane.groupPods.try_emplace(objectKey(object->metadata.namespace_, g->second)).first;
    sp.group = &*group;
    sp.group->second.pods.insert(sp.seq);
    membersChanged(sp);
  }
  sp.state.object = std::move(object);
  lane.podsBySeq.emplace(sp.seq, &sp);
  emit(lane, ClusterEvent::Type::PodAdded).pod = sp.state;
  if (created) *created = sp.state;
  dirty_ = true;
  return ClusterStatus::success();
}

void SimCluster::releaseResources(SimPod& pod) {
  if (!pod.holdsResources) return;
  std::lock_guard lock(nodesMutex_);
  nodes_[static_cast<size_t>(pod.node)].used -= pod.request;
  pod.holdsResources = false;
}

void SimCluster::removePod(Lane& lane, const std::string& key) {
  auto it = lane.pods.find(key);
  if (it == lane.pods.end()) return;
  SimPod& pod = it->second;
  releaseResources(pod);
  dropDues(lane, pod);
  if (pod.node >= 0) {
    std::lock_guard lock(nodesMutex_);
    --nodes_[static_cast<size_t>(pod.node)].pods;
  }
  if (pod.group) {
    pod.group->second.pods.erase(pod.seq);
    membersChanged(pod);
    if (pod.group->second.pods.empty()) lane.groupPods.erase(lane.groupPods.find(pod.group->first));
  }
  lane.podsBySeq.erase(pod.seq);
  unplace(shard(podIndex_, key), key);
  ClusterEvent& ev = emit(lane, ClusterEvent::Type::PodDeleted);
  ev.pod = std::move(pod.state);
  ev.pod.deletionTimestamp = clock_.now();
  lane.pods.erase(it);
  dirty_ = true;
}

ClusterStatus SimCluster::deletePod(const std::string& ns, const std::string& name) {
  auto removed = withPod(ObjectRef{ns, name}, [&](Lane& lane, auto& pod) {
    if (pod.second.refuseDeletes) return false;
    removePod(lane, pod.first);
    return true;
  });
  if (!removed) return ClusterStatus::fail(ClusterErrc::NotFound, "pods \"" + name + "\" not found");
  return *removed ? ClusterStatus::success() : ClusterStatus::fail(ClusterErrc::Failed, "delete of pod " + name + " refused");
}

void SimCluster::emitPodUpdate(Lane& lane, SimPod& pod, PodPhase oldPhase, uint64_t oldVersion) {
  pod.state.resourceVersion = ++resourceVersion_;
  ClusterEvent& ev = emit(lane, ClusterEvent::Type::PodUpdated);
  ev.pod = pod.state;
  ev.oldPodPhase = oldPhase;
  ev.oldResourceVersion = oldVersion;
}

ClusterStatus SimCluster::annotatePod(const std::string& ns, const std::string& name, const std::string& key,
                                      const std::string& value) {
  auto annotated = withPod(ObjectRef{ns, name}, [&](Lane& lane, auto& entry) {
    SimPod& pod = entry.second;
    if (pod.refusePatches) return false;
    auto object = std::make_shared<Pod>(*pod.state.object);
    object->metadata.annotations[key] = value;
    pod.state.object = std::move(object);
    emitPodUpdate(lane, pod, pod.state.status.phase, pod.state.resourceVersion);
    return true;
  });
  if (!annotated) return ClusterStatus::fail(ClusterErrc::NotFound, "pods \"" + name + "\" not found");
  return *annotated ? ClusterStatus::success() : ClusterStatus::fail(ClusterErrc::Failed, "patch of pod " + name + " refused");
}

std::optional<PodState> SimCluster::getPod(const std::string& ns, const std::string& name) {
  return withPod(ObjectRef{ns, name}, [](Lane&, auto& pod) { return pod.second.state; });
}

std::vector<std::string> SimCluster::podNames() {
  std::vector<std::string> out;
  auto locks = lockAllLanes();
  for (auto& lane : lanes_)
    for (const auto& [key, pod] : lane->pods) out.push_back(key);
  std::sort(out.begin(), out.end());
  return out;
}

std::string SimCluster::nodeOf(const std::string& ns, const std::string& name) {
  auto node = withPod(ObjectRef{ns, name}, [&](Lane&, auto& pod) {
    if (pod.second.node < 0) return std::string();
    std::lock_guard nodes(nodesMutex_);
    return nodes_[static_cast<size_t>(pod.second.node)].name;
  });
  return node.value_or("");
}

size_t SimCluster::podCount() {
  size_t n = 0;
  auto locks = lockAllLanes();
  for (auto& lane : lanes_) n += lane->pods.size();
  return n;
}

}  // namespace jobhost
