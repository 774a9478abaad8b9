// Small Volcano helpers plugins keep rewriting (job/plugins/util and job/helpers): pod index and
// task of a pod, a pod's domain name, opening a port, the env a template already sets, the job's owner
// reference, the marker, what a job's host names are derived from, create-or-update of a ConfigMap.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

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

/// `env` less the variables that `isExtra(name)` marks and that the template of task `task` already
/// sets in the env of its container or init container named `container`: variables the user wrote
/// in the job. Volcano's plugins never touch env they do not set, so a plugin that adds variables
/// Volcano's own plugin does not (the torchrun PET_* of torch, the OMPI_MCA_* of mpi) injects this
/// instead of `env`, and Volcano YAML keeps its meaning. The template container is looked up once.
/// Pure; any thread.
template <class IsExtra>
std::vector<EnvVar> withoutTemplateEnv(std::vector<EnvVar> env, const Job& job, const std::string& task,
                                       const std::string& container, IsExtra isExtra) {
  const TaskSpec* spec = job.findTask(task);
  if (spec == nullptr) return env;
  for (const auto* list : {&spec->template_.spec.containers, &spec->template_.spec.initContainers})
    for (const Container& c : *list)
      if (c.name == container) {
        std::erase_if(env, [&](const EnvVar& var) {
          return isExtra(var.name) &&
                 std::any_of(c.env.begin(), c.env.end(), [&](const EnvVar& e) { return e.name == var.name; });
        });
        return env;
      }
  return env;
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

/// What a job's host names and the objects built from them (Volcano's GenerateHosts: svc's hosts,
/// mpi's hostfile) are derived from: the job's name, namespace and UID, and per task its name,
/// replicas, template hostname and subdomain. A plugin that keeps such objects per job (jobCache)
/// stores one and rebuilds them when it no longer matches the job of the call. Pure; any thread.
struct HostsSource {
  struct Task {
    std::string name;
    int32_t replicas = 0;
    std::string hostname;
    std::string subdomain;
  };
  std::string job;
  std::string namespace_;
  std::string uid;
  std::vector<Task> tasks;

  static HostsSource of(const Job& j) {
    HostsSource s{j.metadata.name, j.metadata.namespace_, j.metadata.uid, {}};
    s.tasks.reserve(j.spec.tasks.size());
    for (const auto& t : j.spec.tasks)
      s.tasks.push_back({t.name, t.replicas, t.template_.spec.hostname, t.template_.spec.subdomain});
    return s;
  }
  /// Whether `j` still has these names, UID and tasks (without building anything).
  bool matches(const Job& j) const {
    if (j.metadata.name != job || j.metadata.namespace_ != namespace_ || j.metadata.uid != uid ||
        j.spec.tasks.size() != tasks.size())
      return false;
    for (size_t i = 0; i < tasks.size(); ++i) {
      const TaskSpec& t = j.spec.tasks[i];
      if (t.name != tasks[i].name || t.replicas != tasks[i].replicas ||
          t.template_.spec.hostname != tasks[i].hostname || t.template_.spec.subdomain != tasks[i].subdomain)
        return false;
    }
    return true;
  }
};

/// Volcano's CreateOrUpdateConfigMap for a ConfigMap a plugin keeps per job (a jobCache entry):
/// applies `objects`, whose first ConfigMap is the one meant, unless the stored one has its data.
/// `verified` is the entry's memo of the stored version at which the data last matched
/// (ResourceClient::configMapVersion, 0 for none): while the stored version is still that, nothing
/// is compared, so the syncs of a large job do not compare every host name each time. Keep one per
/// ConfigMap in the entry (a `mutable` member: the hook calls of one job never overlap).
inline Status createOrUpdateConfigMap(ResourceClient& client, const Components& objects, uint64_t& verified) {
  const ConfigMap& cm = objects.configMaps.front();
  const uint64_t before = client.configMapVersion(cm.metadata.name);
  if (before != 0 && before == verified) return Status::ok();
  if (client.hasConfigMapData(cm.metadata.name, cm.data)) {
    verified = client.configMapVersion(cm.metadata.name) == before ? before : 0;  // unless written meanwhile
    return Status::ok();
  }
  verified = 0;
  return client.apply(objects);
}

/// One-off forms of Marker (each builds the key): whether the key is present at all, set, clear.
inline bool hasMarker(JobContext& ctx, const std::string& plugin) {
  return ctx.controlledResources().count("plugin-" + plugin) != 0;
}
inline void setMarker(JobContext& ctx, const std::string& plugin) { Marker(plugin).set(ctx); }
inline void clearMarker(JobContext& ctx, const std::string& plugin) { Marker(plugin).clear(ctx); }

/// Admission warnings for the template mounts a plugin replaces: it mounts its own volume at
/// `mountPath` in every container and init container (an upsert by path), where Volcano appends a
/// second mount that the API server refuses. `plugin` names the plugin in the warning. Pure.
inline void warnReplacedMounts(const Job& job, const std::string& plugin, const std::string& mountPath,
                               ValidationResult& out) {
  for (size_t t = 0; t < job.spec.tasks.size(); ++t) {
    const PodSpec& spec = job.spec.tasks[t].template_.spec;
    for (const auto& [list, field] : {std::pair{&spec.initContainers, "initContainers"}, std::pair{&spec.containers, "containers"}})
      for (size_t c = 0; c < list->size(); ++c) {
        const auto& mounts = (*list)[c].volumeMounts;
        for (size_t m = 0; m < mounts.size(); ++m)
          if (mounts[m].mountPath == mountPath)
            out.warnings.push_back("spec.tasks[" + std::to_string(t) + "].template.spec." + field + "[" +
                                   std::to_string(c) + "].volumeMounts[" + std::to_string(m) + "]: the " + plugin +
                                   " plugin mounts its own volume at " + mountPath +
                                   " and replaces this mount (on Volcano the API server refuses the pod, a "
                                   "mountPath must be unique); mount it elsewhere");
      }
  }
}

}  // namespace jobhost::volcano
