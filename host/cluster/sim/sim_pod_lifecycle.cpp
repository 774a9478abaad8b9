// SimCluster pod lifecycle on the clock (bound -> Running -> ready -> restarts -> exit), script
// actions (evict, lose a node), and handing events over: deliver() to the listener or takeLane().
#include <algorithm>

#include "host/cluster/sim/sim_cluster.h"

namespace jobhost {

void SimCluster::scheduleDue(Lane& lane, SimPod& pod, int64_t delayMs, Due::Kind kind) {
  const TimeMs at = clock_.now() + std::max<int64_t>(delayMs, 0);
  auto [it, fresh] = lane.timeline.try_emplace(at);
  Slot& slot = it->second;
  if (fresh) {
    slot.id = ++lane.slots;
    slot.timer = clock_.schedule(at - clock_.now(), [life = lifeline_, &lane, at, id = slot.id] {
      life->run([&] {
        std::lock_guard lock(lane.mutex);
        auto it = lane.timeline.find(at);
        if (it == lane.timeline.end() || it->second.id != id) return;
        std::vector<Due>& dues = it->second.dues;
        if (lane.due.empty())
          lane.due.swap(dues);
        else
          lane.due.insert(lane.due.end(), std::make_move_iterator(dues.begin()), std::make_move_iterator(dues.end()));
        lane.timeline.erase(it);
      });
    });
  }
  slot.dues.push_back(Due{kind, pod.seq, {}, 0, slot.id});
  ++slot.live;
  pod.dues.emplace_back(at, slot.id);
}

void SimCluster::dropDues(Lane& lane, SimPod& pod) {
  for (const auto& [at, id] : pod.dues) {
    auto it = lane.timeline.find(at);
    if (it == lane.timeline.end() || it->second.id != id || --it->second.live > 0) continue;
    it->second.timer.cancel();
    lane.timeline.erase(it);
  }
  pod.dues.clear();
}

void SimCluster::evictPod(const std::string& ns, const std::string& name) {
  std::lock_guard lock(mutex_);
  scriptActions_.push_back(Due{Due::Kind::Evict, 0, ns + "/" + name, 0});
}

void SimCluster::loseNode(int index) {
  std::lock_guard lock(mutex_);
  scriptActions_.push_back(Due{Due::Kind::LoseNode, 0, "", index});
}

void SimCluster::restoreNode(int index) {
  std::lock_guard lock(mutex_);
  scriptActions_.push_back(Due{Due::Kind::RestoreNode, 0, "", index});
}

void SimCluster::failPodCreates(int count) { failCreates_ = count; }

bool SimCluster::refusePodWrites(const std::string& ns, const std::string& name, bool patches, bool deletes) {
  return withPod(ObjectRef{ns, name}, [&](Lane&, auto& entry) {
           entry.second.refusePatches = patches;
           entry.second.refuseDeletes = deletes;
           return true;
         }).has_value();
}

void SimCluster::startPod(Lane& lane, SimPod& pod) {
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
  emitPodUpdate(lane, pod, old, oldVersion);
  membersChanged(pod);
  if (b.readyAfterMs > 0) scheduleDue(lane, pod, b.readyAfterMs, Due::Kind::Ready);
  for (int64_t at : b.restartsAtMs)
    if (!b.runForMs || at < *b.runForMs) scheduleDue(lane, pod, at, Due::Kind::Restart);
  if (b.runForMs) scheduleDue(lane, pod, *b.runForMs, Due::Kind::Exit);
}

void SimCluster::exitPod(Lane& lane, SimPod& pod) {
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
  dropDues(lane, pod);  // an exited pod neither becomes ready nor restarts
  emitPodUpdate(lane, pod, old, oldVersion);
  membersChanged(pod);
  dirty_ = true;
}

void SimCluster::applyDue(Lane& lane, const Due& due) {
  auto it = lane.podsBySeq.find(due.pod);
  if (it == lane.podsBySeq.end()) return;
  SimPod& pod = *it->second;
  // This due has fired: it no longer counts among the pod's waiting ones.
  if (auto mine = std::find_if(pod.dues.begin(), pod.dues.end(), [&](const auto& d) { return d.second == due.slot; });
      mine != pod.dues.end())
    pod.dues.erase(mine);
  PodStatus& st = pod.state.status;
  switch (due.kind) {
    case Due::Kind::Start:
      if (st.phase == PodPhase::Pending) startPod(lane, pod);
      break;
    case Due::Kind::Ready:
      if (st.phase == PodPhase::Running) {
        uint64_t v = pod.state.resourceVersion;
        for (auto& c : st.containerStatuses) c.ready = true;
        emitPodUpdate(lane, pod, PodPhase::Running, v);
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
          scheduleDue(lane, pod, pod.behaviour.readyAfterMs, Due::Kind::Ready);
        }
        emitPodUpdate(lane, pod, PodPhase::Running, v);
      }
      break;
    case Due::Kind::Exit:
      if (st.phase == PodPhase::Running) exitPod(lane, pod);
      break;
    case Due::Kind::Evict:
    case Due::Kind::LoseNode:
    case Due::Kind::RestoreNode:
      break;
  }
}

void SimCluster::applyScriptAction(const Due& action) {
  if (action.kind == Due::Kind::Evict) {
    if (Lane* lane = podLane(action.key)) removePod(*lane, action.key);
    return;
  }
  {
    std::lock_guard lock(nodesMutex_);
    const auto n = static_cast<size_t>(action.node);
    const bool lose = action.kind == Due::Kind::LoseNode;
    if (action.node < 0 || n >= nodes_.size() || nodes_[n].lost == lose) return;
    nodes_[n].lost = lose;
    if (!lose) {  // back empty: its pods were deleted when it was lost
      dirty_ = true;
      return;
    }
  }
  std::vector<std::pair<std::string, Lane*>> doomed;
  for (auto& lane : lanes_)
    for (const auto& [key, pod] : lane->pods)
      if (pod.node == action.node) doomed.emplace_back(key, lane.get());
  std::sort(doomed.begin(), doomed.end());
  for (const auto& [key, lane] : doomed) removePod(*lane, key);
  dirty_ = true;
}

bool SimCluster::deliver() {
  std::vector<Due> actions;
  {
    std::lock_guard lock(mutex_);
    actions.swap(scriptActions_);
  }
  if (!actions.empty()) {
    auto locks = lockAllLanes();
    for (const auto& action : actions) applyScriptAction(action);
  }
  if (laned_) return !actions.empty();
  std::vector<ClusterEvent> batch;
  const bool applied = takeLane(0, batch) || !actions.empty();
  ClusterListener* listener;
  {
    std::lock_guard lock(mutex_);
    listener = listener_;
  }
  if (!batch.empty() && listener) listener->onClusterEvents(batch);
  return applied;
}

bool SimCluster::takeLane(size_t index, std::vector<ClusterEvent>& out) {
  Lane& lane = *lanes_[index];
  std::lock_guard lock(lane.mutex);
  std::vector<Due> due;
  due.swap(lane.due);
  for (const auto& d : due) applyDue(lane, d);
  const bool any = !due.empty() || !lane.events.empty();
  delivered_.fetch_add(lane.events.size());
  lane.eventsHighWater = std::max(lane.eventsHighWater, lane.events.size());
  if (out.empty())
    out.swap(lane.events);
  else
    out.insert(out.end(), std::make_move_iterator(lane.events.begin()), std::make_move_iterator(lane.events.end()));
  lane.events.clear();
  // Room for the largest take so far: growing the vector while emitting moved every event in it.
  lane.events.reserve(lane.eventsHighWater);
  return any;
}

bool SimCluster::lanePending(size_t index) {
  Lane& lane = *lanes_[index];
  std::lock_guard lock(lane.mutex);
  return !lane.due.empty() || !lane.events.empty();
}

bool SimCluster::lanesPending() {
  for (size_t i = 0; i < lanes_.size(); ++i)
    if (lanePending(i)) return true;
  return false;
}

bool SimCluster::schedule() {
  if (!dirty_.exchange(false)) return false;
  std::vector<PodGroup> reports;
  std::function<void(const PodGroup&)> observer;
  {
    auto locks = lockAllLanes();
    std::lock_guard lock(mutex_);
    schedulePass();
    reports.swap(unschedulable_);
    observer = unschedulableObserver_;
  }
  if (observer)
    for (const auto& pg : reports) observer(pg);
  return true;
}

}  // namespace jobhost
