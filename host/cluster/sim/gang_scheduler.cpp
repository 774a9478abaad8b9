// The sim's gang scheduler, one pass per step: enqueue PodGroups whose minResources fit
// (Pending/"" -> Inqueue), bind a group's pods only when minMember of them (and each task's
// minTaskMember, when minMember covers their sum) can run, keep the PodGroup phase (Running; Unknown
// when a running gang falls below minMember) and its conditions as the local scheduler does.
#include <algorithm>

#include "host/cluster/gang_readiness.h"
#include "host/cluster/podgroup_conditions.h"
#include "host/cluster/sim/node_index.h"
#include "host/cluster/sim/sim_cluster.h"

namespace jobhost {
namespace {

std::string describe(const SimResources& r) {
  return "cpu " + Quantity::fromMilli(r.cpuMilli).toString() + ", memory " +
         Quantity::fromMilli(r.memoryMilli, Quantity::Format::BinarySI).toString() + ", gpu " + std::to_string(r.gpu);
}


}  // namespace

void SimCluster::armScheduleTimeout(const SimGroup& group) {
  if (!group.pg.spec.scheduleTimeoutSeconds) return;
  const TimeMs deadline = group.createdAt + int64_t{*group.pg.spec.scheduleTimeoutSeconds} * 1000;
  const std::string key = group.pg.metadata.namespace_ + "/" + group.pg.metadata.name;
  clock_.schedule(std::max<int64_t>(0, deadline - clock_.now()), [this, life = lifeline_, key] {
    life->run([&] {
      if (groupLane(key)) dirty_ = true;
    });
  });
}

void SimCluster::reportUnschedulable(SimGroup& group, bool changed) {
  if (changed && group.pg.status.conditions.back().type == "Unschedulable") group.reported = true;
}

void SimCluster::setGroupPhase(SimGroup& group, const std::string& phase) {
  std::string old = group.pg.status.phase;
  if (old == phase) return;
  group.pg.status.phase = phase;
  ClusterEvent& ev = emit(*lanes_[group.lane], ClusterEvent::Type::PodGroupUpdated);
  ev.podGroup = std::make_shared<PodGroup>(group.pg);
  ev.oldPodGroupPhase = old;
}

void SimCluster::schedulePass() {
  std::lock_guard nodesLock(nodesMutex_);
  std::vector<NodeIndex::Node> nodes;
  nodes.reserve(nodes_.size());
  SimResources total, capacity;
  for (const auto& n : nodes_) {
    SimResources f = n.capacity;
    f -= n.used;
    nodes.push_back({f, n.pods, n.lost});
    if (!n.lost) {
      total += f;
      capacity += n.capacity;
    }
  }
  NodeIndex index;
  index.reset(std::move(nodes));
  for (const auto& [at, g] : groupOrder_)
    if (g->reserved && g->pg.spec.minResources) total -= amountsOf(*g->pg.spec.minResources);

  for (const auto& [at, gp] : groupOrder_) {
    SimGroup& g = *gp;
    const std::string& phase = g.pg.status.phase;
    if (!phase.empty() && phase != "Pending") continue;
    SimResources need = g.pg.spec.minResources ? amountsOf(*g.pg.spec.minResources) : SimResources{};
    if (need.fitsIn(total)) {
      total -= need;
      g.reserved = true;
      setGroupPhase(g, "Inqueue");
    } else {
      if (phase.empty()) setGroupPhase(g, "Pending");
      const bool never = !need.fitsIn(capacity);
      reportUnschedulable(g, reportNotEnoughResources(
                                 g.pg.status.conditions,
                                 "minResources (" + describe(need) + ") " +
                                     (never ? "exceed the cluster's capacity (" + describe(capacity) + ")"
                                            : "do not fit the free capacity (" + describe(total) + ")"),
                                 clock_.now()));
    }
  }

  std::vector<SimPod*> members, waiting;
  std::vector<std::pair<SimPod*, int>> placed;  // tried on `index`: taken back unless the gang is bound
  std::vector<std::string_view> occupied;
  for (const auto& [at, gp] : groupOrder_) {
    SimGroup& g = *gp;
    Lane& lane = *lanes_[g.lane];
    const auto group = lane.groupPods.find(at.second);
    const uint64_t changed = group == lane.groupPods.end() ? 0 : group->second.changed;
    // A placed gang none of whose pods changed or waited since the last pass would come out the same.
    if (g.placed && g.waiting == 0 && changed != 0 && changed == g.seen && g.pg.status.phase == "Running") continue;
    g.placed = false;
    g.allocated = g.running = g.waiting = 0;
    g.seen = changed;
    const std::string& phase = g.pg.status.phase;
    if (phase != "Inqueue" && phase != "Running" && phase != "Unknown") continue;
    members.clear();
    waiting.clear();
    placed.clear();
    if (group != lane.groupPods.end())
      for (uint64_t seq : group->second.pods) members.push_back(lane.podsBySeq.at(seq));
    int allocated = 0;
    for (SimPod* p : members) {
      if (p->holdsResources || p->state.status.phase == PodPhase::Succeeded) ++allocated;
      if (p->node < 0 && p->state.status.phase == PodPhase::Pending) waiting.push_back(p);
    }
    for (SimPod* p : waiting) {
      int n = index.pick(p->request);
      if (n < 0) continue;
      index.take(n, p->request);
      placed.emplace_back(p, n);
    }
    const bool enough = !placed.empty() && allocated + static_cast<int>(placed.size()) >= g.pg.spec.minMember;
    std::optional<TaskShortfall> shortTask;
    if (enough && !g.pg.spec.minTaskMember.empty()) {
      occupied.clear();
      for (SimPod* p : members)
        if (p->holdsResources || p->state.status.phase == PodPhase::Succeeded) occupied.push_back(taskOfPod(*p->state.object));
      for (auto& [p, n] : placed) occupied.push_back(taskOfPod(*p->state.object));
      shortTask = taskShortOfMinimum(g.pg.spec.minMember, g.pg.spec.minTaskMember, occupied);
    }
    if (!enough || shortTask) {
      for (auto it = placed.rbegin(); it != placed.rend(); ++it) index.give(it->second, it->first->request);
    } else {
      for (auto& [p, n] : placed) {
        Node& node = nodes_[static_cast<size_t>(n)];
        p->node = n;
        p->holdsResources = true;
        node.used += p->request;
        ++node.pods;
        uint64_t v = p->state.resourceVersion;
        p->state.status.nodeName = node.name;
        emitPodUpdate(lane, *p, PodPhase::Pending, v);
        scheduleDue(lane, *p, p->behaviour.startAfterMs, Due::Kind::Start);
        ++allocated;
      }
    }
    int running = 0;
    for (SimPod* p : members) running += p->state.status.phase == PodPhase::Running ? 1 : 0;
    g.allocated = allocated;
    g.running = running;
    g.waiting = static_cast<int>(waiting.size() - placed.size());
    if (allocated >= g.pg.spec.minMember) {
      g.reserved = false;
      g.placed = true;
      setGroupPhase(g, "Running");
      reportScheduled(g.pg.status.conditions, clock_.now());
      continue;
    }
    const bool wasPlaced = phase == "Running" || phase == "Unknown";
    if (wasPlaced) {
      g.reserved = false;
      setGroupPhase(g, running > 0 ? "Unknown" : "Pending");
      if (running == 0) dirty_ = true;  // enqueue it again on the next pass
    }
    // Why the gang is not placed, as Volcano's gang plugin reports any gang short of minMember.
    auto& conditions = g.pg.status.conditions;
    if (shortTask || g.waiting > 0)  // capacity holds back the gang, or one task's share of it
      reportUnschedulable(g, reportGangShort(conditions, g.pg.spec.minMember, allocated, members.size(),
                                             shortTask ? shortTask->describe()
                                                       : "only " + std::to_string(placed.size()) + " of the waiting pods fit",
                                             clock_.now()));
    else if (wasPlaced) {  // members failed or were deleted
      const auto valid = std::count_if(members.begin(), members.end(),
                                       [](const SimPod* p) { return p->state.status.phase != PodPhase::Failed; });
      reportUnschedulable(
          g, reportNotEnoughTasks(conditions, static_cast<int32_t>(valid), g.pg.spec.minMember, clock_.now()));
    }
  }

  // scheduleTimeoutSeconds: a gang still unplaced at its deadline is reported; Unknown if some run.
  for (const auto& [at, gp] : groupOrder_) {
    SimGroup& g = *gp;
    const auto& timeout = g.pg.spec.scheduleTimeoutSeconds;
    if (g.placed || !timeout || clock_.now() < g.createdAt + int64_t{*timeout} * 1000) continue;
    reportUnschedulable(g, reportScheduleTimeout(g.pg.status.conditions, g.pg.spec.minMember, *timeout, g.allocated,
                                                 clock_.now()));
    if (g.running > 0) setGroupPhase(g, "Unknown");
  }
  for (const auto& [at, gp] : groupOrder_) {  // one report per group and pass, in its final state
    SimGroup& g = *gp;
    if (g.reported) unschedulable_.push_back(g.pg);
    g.reported = false;
  }
}

}  // namespace jobhost
