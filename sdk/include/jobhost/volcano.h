// Small Volcano helpers plugins keep rewriting (job/plugins/util and job/helpers): pod index and
// task of a pod, a pod's domain name, opening a port, the job's owner reference and the marker.
#pragma once

#include <algorithm>
#include <string>
#include <utility>

#include "jobhost/extension_points.h"
#include "jobhost/job.h"

namespace jobhost::volcano {

/// GetPodIndexUnderTask: the last '-'-separated part of "<job>-<task>-<index>", or "" when the
/// name has fewer than three parts. Pure; any thread.
inline std::string podIndex(const std::string& podName) {
  if (std::count(podName.begin(), podName.end(), '-') < 2) return "";
  return podName.substr(podName.rfind('-') + 1);
}

/// GetTaskKey: the pod's volcano.sh/task-spec annotation, else "default".
inline std::string taskKey(const Pod& pod) {
  auto it = pod.metadata.annotations.find(std::string(keys::TaskSpec));
  return it == pod.metadata.annotations.end() ? std::string(keys::DefaultTaskSpec) : it->second;
}

/// MakeDomainName: "<hostname>.<subdomain>" of pod `index` of `task`; hostname defaults to
/// "<job>-<task>-<index>", subdomain to the job name (what the svc plugin sets).
inline std::string domainName(const Job& job, const TaskSpec& task, int32_t index) {
  const auto& spec = task.template_.spec;
  const std::string host =
      spec.hostname.empty() ? job.metadata.name + "-" + task.name + "-" + std::to_string(index) : spec.hostname;
  return host + "." + (spec.subdomain.empty() ? job.metadata.name : spec.subdomain);
}

/// The port-opening step of Volcano's pytorch and mpi plugins: appends {name, containerPort: port}
/// unless a port of `container` already has that number. The number is Go's int32(port) (it wraps).
inline void openPort(Container& container, std::string name, int64_t port) {
  const auto number = static_cast<int32_t>(port);
  for (const auto& p : container.ports)
    if (p.containerPort == number) return;
  ContainerPort& added = container.ports.emplace_back();
  added.name = std::move(name);
  added.containerPort = number;
}

/// metav1.NewControllerRef(job, JobKind): the controller owner reference to `job` that every object
/// the job creates carries (its pods, its PodGroup, what plugins create). Pure; any thread.
inline OwnerReference controllerRef(const Job& job) {
  OwnerReference owner;
  owner.apiVersion = "batch.volcano.sh/v1alpha1";
  owner.kind = "Job";
  owner.name = job.metadata.name;
  owner.uid = job.metadata.uid;
  owner.controller = true;
  owner.blockOwnerDeletion = true;
  return owner;
}

/// The metadata of an object a plugin creates for `job`: `name` in the job's namespace, owned by the
/// job through controllerRef(job). Pure; any thread.
inline ObjectMeta ownedBy(const Job& job, std::string name) {
  ObjectMeta meta;
  meta.name = std::move(name);
  meta.namespace_ = job.metadata.namespace_;
  meta.ownerReferences.push_back(controllerRef(job));
  return meta;
}

/// A plugin's idempotency marker controlledResources["plugin-<name>"] = "<name>" (spec §7.1), its
/// key built once: keep one per plugin (e.g. a namespace-scope const) and the hooks that test, set
/// or clear it allocate nothing. Any thread; the JobContext is the caller's.
class Marker {
 public:
  explicit Marker(std::string plugin) : key_("plugin-" + plugin), value_(std::move(plugin)) {}
  /// Whether the marker is set to this plugin's name (Volcano's `== name` test).
  bool isSet(JobContext& ctx) const {
    const auto& marks = ctx.controlledResources();
    auto it = marks.find(key_);
    return it != marks.end() && it->second == value_;
  }
  void set(JobContext& ctx) const { ctx.controlledResources()[key_] = value_; }
  void clear(JobContext& ctx) const { ctx.controlledResources().erase(key_); }

 private:
  std::string key_;
  std::string value_;
};

/// One-off forms of Marker (each builds the key): whether the key is present at all, set, clear.
inline bool hasMarker(JobContext& ctx, const std::string& plugin) {
  return ctx.controlledResources().count("plugin-" + plugin) != 0;
}
inline void setMarker(JobContext& ctx, const std::string& plugin) { Marker(plugin).set(ctx); }
inline void clearMarker(JobContext& ctx, const std::string& plugin) { Marker(plugin).clear(ctx); }

}  // namespace jobhost::volcano
