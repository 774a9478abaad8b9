// NoPluginJobPlugins: createJobPod's identity part (§6.1) and the PodGroup of §6.2 with
// minResources per §6.3 for tasks of equal priority (requests summed per pod, quota-style keys).
#include "host/controller/no_plugin_job_plugins.h"

#include <algorithm>

#include "host/controller/backend_resource_client.h"

namespace jobhost {
namespace {

ResourceList podRequests(const PodSpec& spec) {
  ResourceList sum;
  for (const auto& c : spec.containers) addResources(sum, c.resources.requests);
  for (const auto& c : spec.initContainers)
    for (const auto& [name, q] : c.resources.requests)
      if (sum[name] < q) sum[name] = q;
  return sum;
}

void addPodUsage(ResourceList& into, const ResourceList& requests) {
  for (const auto& [name, q] : requests) {
    into[name] += q;
    into["requests." + name] += q;
  }
  into["pods"] += Quantity::fromMilli(1000);
  into["count/pods"] += Quantity::fromMilli(1000);
}

ResourceList minResources(const JobSpec& spec) {
  ResourceList out;
  int32_t total = 0;
  for (const auto& t : spec.tasks) total += t.minAvailable ? *t.minAvailable : t.replicas;
  int32_t remaining = spec.minAvailable;
  auto take = [&](const TaskSpec& t, int32_t n) {
    ResourceList per = podRequests(t.template_.spec);
    for (int32_t i = 0; i < n; ++i) addPodUsage(out, per);
    remaining -= n;
  };
  if (spec.minAvailable < total) {
    for (const auto& t : spec.tasks) {
      if (remaining <= 0) break;
      take(t, std::min(remaining, t.replicas));
    }
    return out;
  }
  for (const auto& t : spec.tasks) {
    if (remaining <= 0) break;
    if (t.minAvailable) take(t, std::min(*t.minAvailable, remaining));
  }
  for (const auto& t : spec.tasks) {
    if (remaining <= 0) break;
    int32_t spare = t.replicas - (t.minAvailable ? *t.minAvailable : 0);
    if (t.minAvailable && spare > 0) take(t, std::min(spare, remaining));
  }
  return out;
}

}  // namespace

Status NoPluginJobPlugins::prepare(const Job&) { return Status::ok(); }
void NoPluginJobPlugins::forget(const std::string&) {}

Expected<Pod> NoPluginJobPlugins::makePod(const Job& job, size_t taskIndex, int32_t podIndex) {
  if (taskIndex >= job.spec.tasks.size()) return Expected<Pod>::failure("task index out of range");
  const TaskSpec& task = job.spec.tasks[taskIndex];
  const std::string& name = job.metadata.name;
  std::string index = std::to_string(podIndex);
  std::string taskSpec = task.name.empty() ? std::string(keys::DefaultTaskSpec) : task.name;
  Pod pod;
  pod.metadata = task.template_.metadata;
  pod.metadata.name = name + "-" + task.name + "-" + index;
  pod.metadata.namespace_ = job.metadata.namespace_;
  pod.metadata.ownerReferences = {jobOwnerReference(job)};
  auto& ann = pod.metadata.annotations;
  ann[std::string(keys::TaskIndex)] = index;
  ann[std::string(keys::TaskSpec)] = taskSpec;
  ann[std::string(keys::GroupName)] = name + "-" + job.metadata.uid;
  ann[std::string(keys::JobName)] = name;
  ann[std::string(keys::QueueName)] = job.spec.queue;
  ann[std::string(keys::JobVersion)] = std::to_string(job.status.version);
  ann[std::string(keys::TemplateUid)] = name + "-" + task.name;
  ann[std::string(keys::JobRetryCount)] = std::to_string(job.status.retryCount);
  if (!task.topologyPolicy.empty()) ann[std::string(keys::NumaTopologyPolicy)] = task.topologyPolicy;
  auto& labels = pod.metadata.labels;
  labels[std::string(keys::TaskIndex)] = index;
  labels[std::string(keys::JobName)] = name;
  labels[std::string(keys::TaskSpec)] = taskSpec;
  labels[std::string(keys::JobNamespace)] = job.metadata.namespace_;
  labels[std::string(keys::QueueName)] = job.spec.queue;
  if (task.partitionPolicy) {
    int32_t size = task.partitionPolicy->partitionSize;
    labels[std::string(keys::PartitionId)] = std::to_string(size > 0 ? podIndex / size : 0);
  }
  pod.spec = task.template_.spec;
  if (pod.spec.schedulerName.empty()) pod.spec.schedulerName = job.spec.schedulerName;
  if (pod.spec.priorityClassName.empty()) pod.spec.priorityClassName = job.spec.priorityClassName;
  return pod;
}

Expected<PodGroup> NoPluginJobPlugins::makePodGroup(const Job& job) {
  PodGroup pg;
  pg.metadata.name = job.metadata.name + "-" + job.metadata.uid;
  pg.metadata.namespace_ = job.metadata.namespace_;
  pg.metadata.annotations = job.metadata.annotations;
  pg.metadata.labels = job.metadata.labels;
  pg.metadata.ownerReferences = {jobOwnerReference(job)};
  pg.spec.minMember = job.spec.minAvailable;
  pg.spec.minTaskMemberSet = true;
  for (const auto& t : job.spec.tasks) {
    int32_t member = t.replicas;
    if (t.minAvailable)
      member = *t.minAvailable;
    else if (t.partitionPolicy && t.partitionPolicy->minPartitions != 0 && t.partitionPolicy->partitionSize != 0)
      member = t.partitionPolicy->minPartitions * t.partitionPolicy->partitionSize;
    pg.spec.minTaskMember[t.name] = member;
    if (t.partitionPolicy) {
      SubGroupPolicy sub;
      sub.name = t.name;
      sub.subGroupSize = t.partitionPolicy->partitionSize;
      sub.minSubGroups = t.partitionPolicy->minPartitions;
      sub.labelSelector.matchLabels[std::string(keys::TaskSpec)] = t.name;
      sub.matchLabelKeys = {std::string(keys::PartitionId)};
      sub.networkTopology = t.partitionPolicy->networkTopology;
      pg.spec.subGroupPolicy.push_back(std::move(sub));
    }
  }
  pg.spec.queue = job.spec.queue;
  pg.spec.priorityClassName = job.spec.priorityClassName;
  pg.spec.minResources = minResources(job.spec);
  pg.spec.networkTopology = job.spec.networkTopology;
  return pg;
}

Status NoPluginJobPlugins::onJobAdd(Job&, ResourceClient&) { return Status::ok(); }
Status NoPluginJobPlugins::onJobUpdate(Job&, ResourceClient&) { return Status::ok(); }
Status NoPluginJobPlugins::onJobDelete(Job&, ResourceClient&) { return Status::ok(); }
void NoPluginJobPlugins::updateStatus(const Job&, JobStatus&) {}

}  // namespace jobhost
