// One pass of the local gang scheduler (see gang_scheduler.h): bind admitted gangs all-or-nothing,
// admit waiting groups whose minResources fit beside the unplaced admitted ones (and bind them), timeouts.
#include "host/cluster/local/gang_scheduler.h"

#include <algorithm>
#include <map>

#include "host/cluster/gang_readiness.h"
#include "host/cluster/podgroup_conditions.h"

namespace jobhost::local {
namespace {

bool setPhase(GangGroup& g, const std::string& phase) {
  if (g.phase == phase) return false;
  g.phase = phase;
  return true;
}

struct GroupPods {
  std::vector<const GangPod*> waiting;
  std::vector<std::string_view> readyTasks;  // the task of each ready pod
  size_t pods = 0;      // not being deleted, in any slot
  int32_t valid = 0;    // not being deleted and not Finished
  int32_t ready = 0;    // started (or succeeded) and not being deleted
  int32_t running = 0;  // Active and not being deleted
};

}  // namespace

void setGangSpec(GangGroup& group, const PodGroup::Spec& spec) {
  group.minMember = spec.minMember;
  group.minTaskMember = spec.minTaskMember;
  group.minResources = spec.minResources ? fromResourceList(*spec.minResources) : Resources{};
  group.timeoutSeconds = spec.scheduleTimeoutSeconds;
}

GangPlan planGangs(const Resources& capacity, std::vector<GangGroup>& groups, const std::vector<GangPod>& pods,
                   TimeMs now) {
  GangPlan plan;
  Resources free = capacity;
  std::map<std::string, GroupPods> byGroup;
  std::vector<const GangPod*> loose;
  std::vector<const GangPod*> ordered;
  for (const auto& p : pods) {
    if (p.slot == PodSlot::Active) free -= p.demand;
    ordered.push_back(&p);
  }
  std::sort(ordered.begin(), ordered.end(), [](const GangPod* a, const GangPod* b) { return a->seq < b->seq; });
  for (const GangPod* p : ordered) {
    if (p->deleting) continue;
    GroupPods* gp = p->group.empty() ? nullptr : &byGroup[p->group];
    if (gp) {
      ++gp->pods;
      if (p->slot != PodSlot::Finished) ++gp->valid;
    }
    if (p->slot == PodSlot::Waiting) {
      if (gp) gp->waiting.push_back(p);
      else loose.push_back(p);
    } else if (gp && (p->slot == PodSlot::Active || p->slot == PodSlot::Succeeded)) {
      ++gp->ready;
      gp->readyTasks.push_back(p->task);
      if (p->slot == PodSlot::Active) ++gp->running;
    }
  }
  std::vector<GangGroup*> order;
  for (auto& g : groups) order.push_back(&g);
  std::sort(order.begin(), order.end(), [](const GangGroup* a, const GangGroup* b) { return a->seq < b->seq; });
  std::vector<std::string> changed;
  auto mark = [&](const GangGroup& g, bool did) {
    if (did && std::find(changed.begin(), changed.end(), g.key) == changed.end()) changed.push_back(g.key);
  };

  // 1. Admitted groups (as the sim does): start waiting pods only when the group then has
  // minMember pods started or succeeded; below that, a Running gang becomes Unknown (some still
  // run) or Pending again (none does, to be admitted anew).
  auto allocate = [&](GangGroup* g) {
    GroupPods& gp = byGroup[g->key];
    Resources left = free;
    std::vector<const GangPod*> take;
    for (const GangPod* p : gp.waiting)
      if (p->demand.fitsIn(left)) {
        take.push_back(p);
        left -= p->demand;
      }
    const int32_t reachable = gp.ready + static_cast<int32_t>(take.size());
    std::optional<TaskShortfall> shortTask;
    if (!take.empty() && reachable >= g->minMember && !g->minTaskMember.empty()) {
      std::vector<std::string_view> occupied = gp.readyTasks;
      for (const GangPod* p : take) occupied.push_back(p->task);
      shortTask = taskShortOfMinimum(g->minMember, g->minTaskMember, occupied);
    }
    if (reachable >= g->minMember && !shortTask) {
      for (const GangPod* p : take) plan.bind.push_back(p->key);
      free = left;
      gp.running += static_cast<int32_t>(take.size());
      g->placed = true;
      mark(*g, setPhase(*g, "Running"));
      mark(*g, reportScheduled(g->conditions, now));
      return;
    }
    g->placed = false;
    const bool wasPlaced = g->phase == "Running" || g->phase == "Unknown";
    if (wasPlaced) mark(*g, setPhase(*g, gp.running > 0 ? "Unknown" : "Pending"));
    if (shortTask || take.size() < gp.waiting.size())  // capacity holds back the gang, or one task's share
      mark(*g, reportGangShort(g->conditions, g->minMember, gp.ready, gp.pods,
                               shortTask ? shortTask->describe()
                                         : "only " + std::to_string(take.size()) + " of the waiting pods fit (free: " +
                                               free.toString() + ")",
                               now));
    else if (wasPlaced)  // members failed or were deleted
      mark(*g, reportNotEnoughTasks(g->conditions, gp.valid, g->minMember, now));
  };
  for (GangGroup* g : order)
    if (g->phase != "Pending") allocate(g);
  for (const GangPod* p : loose)
    if (p->demand.fitsIn(free)) {
      plan.bind.push_back(p->key);
      free -= p->demand;
    }

  // 2. Waiting groups, in creation order: admit when minResources fit beside the unplaced admitted.
  Resources reserved;
  std::vector<GangGroup*> admitted;
  for (const GangGroup* g : order)
    if (g->phase != "Pending" && !g->placed) reserved += g->minResources;
  for (GangGroup* g : order) {
    if (g->phase != "Pending") continue;
    const Resources available = free - reserved;
    if (g->minResources.fitsIn(available)) {
      reserved += g->minResources;
      mark(*g, setPhase(*g, "Inqueue"));
      admitted.push_back(g);
    } else {
      const bool never = !g->minResources.fitsIn(capacity);
      mark(*g, reportNotEnoughResources(g->conditions,
                            "minResources (" + g->minResources.toString() + ") " +
                                (never ? "exceed the machine's capacity (" + capacity.toString() + ")"
                                       : "do not fit the free capacity (" + available.toString() + ")"),
                            now));
    }
  }

  // As a Volcano session allocates right after it enqueues: a group admitted now binds its waiting
  // pods in this pass (nothing else would ask for another pass when they exist already).
  for (GangGroup* g : admitted) allocate(g);

  // 3. scheduleTimeoutSeconds: a gang still unplaced is reported; with some of it running: Unknown.
  for (GangGroup* g : order) {
    if (g->placed || !g->timeoutSeconds) continue;
    const TimeMs deadline = g->since + int64_t{*g->timeoutSeconds} * 1000;
    if (now < deadline) {
      if (!plan.nextDeadline || deadline < *plan.nextDeadline) plan.nextDeadline = deadline;
      continue;
    }
    const GroupPods& gp = byGroup[g->key];
    mark(*g, reportScheduleTimeout(g->conditions, g->minMember, *g->timeoutSeconds, gp.ready, now));
    if (gp.running > 0) mark(*g, setPhase(*g, "Unknown"));
  }
  plan.changedGroups = std::move(changed);
  return plan;
}

}  // namespace jobhost::local
