// buildPod: the pod Volcano's createJobPod makes for one task replica, with every label and
// annotation of spec §6.1, plus the pipeline's pod-set containers and scheduler labels.
#include "host/workload/pod.h"

#include <string>
#include <unordered_set>

#include "host/workload/names.h"
#include "jobhost/volcano.h"

namespace jobhost {
namespace {

const std::string kTaskIndex(keys::TaskIndex);

// The pod's spec: every PodSpec field of the template, except that the containers, init containers
// and volumes come from the pod set when there is one (copied once, not twice).
PodSpec podSpecFrom(const PodSpec& tpl, const PodSet* set) {
  PodSpec spec;
  spec.initContainers = set ? set->initContainers : tpl.initContainers;
  spec.containers = set ? set->containers : tpl.containers;
  spec.volumes = set ? set->volumes : tpl.volumes;
  spec.hostname = tpl.hostname;
  spec.subdomain = tpl.subdomain;
  spec.restartPolicy = tpl.restartPolicy;
  spec.priorityClassName = tpl.priorityClassName;
  spec.schedulerName = tpl.schedulerName;
  spec.dnsPolicy = tpl.dnsPolicy;
  spec.hostNetwork = tpl.hostNetwork;
  spec.unknown = tpl.unknown;
  return spec;
}

void mergeInto(StringMap& into, const StringMap& from) {
  for (const auto& [k, v] : from) into.insert_or_assign(k, v);
}

void copyKey(const StringMap& from, std::string_view key, StringMap& to) {
  auto it = from.find(std::string(key));
  if (it != from.end()) to.insert_or_assign(it->first, it->second);
}

void addJobVolumes(const Job& job, PodSpec& spec) {
  if (job.spec.volumes.empty()) return;
  std::unordered_set<std::string_view> claims;
  for (const auto& v : job.spec.volumes) {
    if (!claims.insert(v.volumeClaimName).second) continue;  // duplicate claim: no volume, no mount
    Volume volume;
    volume.name = jobVolumeName(job, v.volumeClaimName);
    volume.persistentVolumeClaim.emplace().claimName = v.volumeClaimName;
    for (auto& c : spec.containers) {
      VolumeMount mount;
      mount.name = volume.name;
      mount.mountPath = v.mountPath;
      c.volumeMounts.push_back(std::move(mount));
    }
    spec.volumes.push_back(std::move(volume));
  }
}

}  // namespace

Pod podTemplate(const Job& job, const TaskSpec& task, const PodSet* podSet, const SchedulerInfo* scheduler,
                bool jobForwarding) {
  const std::string& jobName = job.metadata.name;
  const PodTemplateSpec& tpl = task.template_;

  Pod pod;
  pod.metadata.namespace_ = job.metadata.namespace_;
  pod.metadata.ownerReferences.push_back(volcano::controllerRef(job));
  pod.metadata.labels = tpl.metadata.labels;
  pod.metadata.annotations = tpl.metadata.annotations;
  if (podSet) {
    mergeInto(pod.metadata.labels, podSet->podLabels);
    mergeInto(pod.metadata.annotations, podSet->podAnnotations);
  }
  if (scheduler) {
    mergeInto(pod.metadata.labels, scheduler->podLabels);
    mergeInto(pod.metadata.annotations, scheduler->podAnnotations);
  }

  pod.spec = podSpecFrom(tpl.spec, podSet);
  if (pod.spec.schedulerName.empty()) pod.spec.schedulerName = job.spec.schedulerName;
  if (pod.spec.priorityClassName.empty()) pod.spec.priorityClassName = job.spec.priorityClassName;
  addJobVolumes(job, pod.spec);

  const std::string& taskSpec = task.name.empty() ? std::string(keys::DefaultTaskSpec) : task.name;
  std::string templateUid;
  templateUid.reserve(jobName.size() + 1 + task.name.size());
  templateUid.append(jobName).push_back('-');
  templateUid.append(task.name);

  StringMap& ann = pod.metadata.annotations;
  ann.insert_or_assign(kTaskIndex, "0");
  ann.insert_or_assign(std::string(keys::TaskSpec), taskSpec);
  ann.insert_or_assign(std::string(keys::GroupName), podGroupName(job));
  ann.insert_or_assign(std::string(keys::JobName), jobName);
  ann.insert_or_assign(std::string(keys::QueueName), job.spec.queue);
  ann.insert_or_assign(std::string(keys::JobVersion), std::to_string(job.status.version));
  ann.insert_or_assign(std::string(keys::TemplateUid), std::move(templateUid));
  ann.insert_or_assign(std::string(keys::JobRetryCount), std::to_string(job.status.retryCount));
  if (!task.topologyPolicy.empty()) ann.insert_or_assign(std::string(keys::NumaTopologyPolicy), task.topologyPolicy);
  if (const StringMap& jobAnn = job.metadata.annotations; !jobAnn.empty()) {
    copyKey(jobAnn, keys::Preemptable, ann);
    copyKey(jobAnn, keys::CooldownTime, ann);
    copyKey(jobAnn, keys::RevocableZone, ann);
    if (jobAnn.count(std::string(keys::JdbMinAvailable)))
      copyKey(jobAnn, keys::JdbMinAvailable, ann);
    else
      copyKey(jobAnn, keys::JdbMaxUnavailable, ann);
  }

  StringMap& lab = pod.metadata.labels;
  lab.insert_or_assign(kTaskIndex, "0");
  lab.insert_or_assign(std::string(keys::JobName), jobName);
  lab.insert_or_assign(std::string(keys::TaskSpec), taskSpec);
  lab.insert_or_assign(std::string(keys::JobNamespace), job.metadata.namespace_);
  lab.insert_or_assign(std::string(keys::QueueName), job.spec.queue);
  if (!job.metadata.labels.empty()) {
    copyKey(job.metadata.labels, keys::Preemptable, lab);
    copyKey(job.metadata.labels, keys::CooldownTime, lab);
  }

  if (jobForwarding) {
    ann.insert_or_assign(std::string(keys::JobForwarding), "true");
    lab.insert_or_assign(std::string(keys::JobForwarding), "true");
  }
  return pod;
}

void setPodIndex(Pod& pod, const Job& job, const TaskSpec& task, int32_t index) {
  pod.metadata.name = podName(job.metadata.name, task.name, index);
  std::string indexText = std::to_string(index);
  pod.metadata.annotations.at(kTaskIndex) = indexText;
  pod.metadata.labels.at(kTaskIndex) = std::move(indexText);
  if (task.partitionPolicy) {
    const int32_t size = task.partitionPolicy->partitionSize;
    pod.metadata.labels.insert_or_assign(std::string(keys::PartitionId), std::to_string(size <= 0 ? 0 : index / size));
  }
}

std::optional<std::vector<Pod>> buildPods(const Job& job, const std::vector<PodSlot>& slots, const RuntimeInfo* info,
                                          bool jobForwarding) {
  std::vector<Pod> pods;
  pods.reserve(slots.size());
  std::optional<Pod> tpl;  // the template of the task of the previous slot
  for (size_t k = 0; k < slots.size(); ++k) {
    const size_t t = slots[k].taskIndex;
    if (t >= job.spec.tasks.size()) return std::nullopt;
    const TaskSpec& task = job.spec.tasks[t];
    if (k == 0 || t != slots[k - 1].taskIndex) {
      const PodSet* set = info && t < info->podSets.size() ? &info->podSets[t] : nullptr;
      tpl = podTemplate(job, task, set, info ? &info->scheduler : nullptr, jobForwarding);
    }
    if (k + 1 == slots.size() || slots[k + 1].taskIndex != t)
      pods.push_back(std::move(*tpl));  // the template's last use
    else
      pods.push_back(*tpl);
    setPodIndex(pods.back(), job, task, slots[k].podIndex);
  }
  return pods;
}

Pod buildPod(const Job& job, const TaskSpec& task, int32_t index, const PodSet* podSet,
             const SchedulerInfo* scheduler, bool jobForwarding) {
  Pod pod = podTemplate(job, task, podSet, scheduler, jobForwarding);
  setPodIndex(pod, job, task, index);
  return pod;
}

}  // namespace jobhost
