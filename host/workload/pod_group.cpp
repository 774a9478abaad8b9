// PodGroup creation from a job and Volcano's update predicate for an existing PodGroup.
// Mirrors createOrUpdatePodGroup / shouldUpdateExistingPodGroup / updatePgSubGroupPolicy.
#include "host/workload/pod_group.h"

#include <string>

#include "host/workload/names.h"
#include "jobhost/volcano.h"

namespace jobhost {
namespace {

SubGroupPolicy subGroupPolicyOf(const TaskSpec& task) {
  const PartitionPolicy& pp = *task.partitionPolicy;
  SubGroupPolicy policy;
  policy.name = task.name;
  policy.subGroupSize = pp.partitionSize;
  policy.minSubGroups = pp.minPartitions;
  policy.labelSelector.matchLabels.emplace(std::string(keys::TaskSpec), task.name);
  policy.matchLabelKeys.emplace_back(keys::PartitionId);
  policy.networkTopology = pp.networkTopology;
  return policy;
}

// Last policy with that name, like Go building a map from the slice.
const SubGroupPolicy* findPolicy(const std::vector<SubGroupPolicy>& policies, const std::string& name) {
  const SubGroupPolicy* found = nullptr;
  for (const auto& p : policies)
    if (p.name == name) found = &p;
  return found;
}

bool subGroupPoliciesDiffer(const PodGroup& existing, const PodGroup& desired) {
  const auto& wanted = desired.spec.subGroupPolicy;
  for (const auto& policy : wanted) {
    const SubGroupPolicy* old = findPolicy(existing.spec.subGroupPolicy, policy.name);
    if (old == nullptr || !(*old == policy)) return true;
  }
  // Tasks of the job (the keys of minTaskMember) without a partitionPolicy must have no policy.
  for (const auto& [task, count] : desired.spec.minTaskMember) {
    (void)count;
    if (findPolicy(wanted, task) == nullptr && findPolicy(existing.spec.subGroupPolicy, task) != nullptr) return true;
  }
  return false;
}

}  // namespace

int32_t minTaskMember(const TaskSpec& task) {
  if (task.minAvailable) return *task.minAvailable;
  const auto& pp = task.partitionPolicy;
  if (pp && pp->minPartitions != 0 && pp->partitionSize != 0)
    return static_cast<int32_t>(int64_t{pp->minPartitions} * pp->partitionSize);  // wraps like Go
  return task.replicas;
}

PodGroup buildPodGroup(const Job& job, const PriorityClassValues& priorityClasses) {
  PodGroup pg;
  pg.metadata.name = podGroupName(job);
  pg.metadata.namespace_ = job.metadata.namespace_;
  pg.metadata.labels = job.metadata.labels;
  pg.metadata.annotations = job.metadata.annotations;
  pg.metadata.ownerReferences.push_back(volcano::controllerRef(job));

  auto& spec = pg.spec;
  spec.minMember = job.spec.minAvailable;
  spec.minTaskMemberSet = true;
  for (const auto& task : job.spec.tasks) spec.minTaskMember.insert_or_assign(task.name, minTaskMember(task));
  spec.queue = job.spec.queue;
  spec.minResources = calcPGMinResources(job, priorityClasses);
  spec.priorityClassName = job.spec.priorityClassName;
  if (const auto& nt = job.spec.networkTopology) {
    NetworkTopologySpec& out = spec.networkTopology.emplace();
    out.mode = nt->mode;
    if (nt->highestTierAllowed)
      out.highestTierAllowed = nt->highestTierAllowed;
    else
      out.highestTierName = nt->highestTierName;
  }
  for (const auto& task : job.spec.tasks)
    if (task.partitionPolicy) spec.subGroupPolicy.push_back(subGroupPolicyOf(task));
  return pg;
}

bool updatePodGroup(PodGroup& existing, const PodGroup& desired) {
  auto& spec = existing.spec;
  bool changed = false;
  if (spec.priorityClassName != desired.spec.priorityClassName) {
    spec.priorityClassName = desired.spec.priorityClassName;
    changed = true;
  }
  if (spec.minMember != desired.spec.minMember || spec.minResources != desired.spec.minResources) {
    spec.minMember = desired.spec.minMember;
    spec.minResources = desired.spec.minResources;
    changed = true;
  }
  if (!spec.minTaskMemberSet) {
    spec.minTaskMemberSet = true;
    spec.minTaskMember.clear();
    changed = true;
  }
  for (const auto& [task, count] : desired.spec.minTaskMember) {
    auto [it, inserted] = spec.minTaskMember.try_emplace(task, count);
    if (inserted || it->second != count) {
      it->second = count;
      changed = true;
    }
  }
  if (subGroupPoliciesDiffer(existing, desired)) {
    spec.subGroupPolicy = desired.spec.subGroupPolicy;
    changed = true;
  }
  return changed;
}

bool podGroupNeedsUpdate(const PodGroup& existing, const PodGroup& desired) {
  PodGroup copy = existing;
  return updatePodGroup(copy, desired);
}

}  // namespace jobhost
