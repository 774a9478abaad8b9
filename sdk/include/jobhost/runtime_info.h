// RuntimeInfo: the one per-job record the pipeline plugins share, with Trainer's upsert helpers
// (env by name, ports by number or name, volumes by name, mounts by path) and env-conflict tracking.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "jobhost/job.h"
#include "jobhost/objects.h"
#include "jobhost/pod.h"

namespace jobhost {

/// Upsert helpers. Each replaces a matching entry in place or appends; returns true on replace.
/// Pure functions on the caller's vectors; any thread.
bool upsertEnv(std::vector<EnvVar>& env, EnvVar var);
bool upsertPort(std::vector<ContainerPort>& ports, ContainerPort port);  // by number or name
bool upsertVolume(std::vector<Volume>& volumes, Volume volume);          // by name
bool upsertVolumeMount(std::vector<VolumeMount>& mounts, VolumeMount m);  // by mountPath
/// First container with that name, or nullptr. The pointer is valid until the vector changes.
Container* findContainer(std::vector<Container>& containers, std::string_view name);
const EnvVar* findEnv(const std::vector<EnvVar>& env, std::string_view name);

/// Records which plugin set each env var so that two plugins setting one variable to different
/// values is reported instead of silently "last writer wins". Owned by the host; plugins reach it
/// through RuntimeInfo::setEnv or JobContext::setEnv.
class EnvLedger {
 public:
  /// The plugin the host is currently calling. Set by the host before each plugin call.
  void setActor(std::string plugin) { actor_ = std::move(plugin); }
  const std::string& actor() const { return actor_; }
  /// Upserts `var` into `container` (scope names the pod set or pod, for messages). If another
  /// plugin set the same variable in the same scope and container to a different value, a
  /// conflict message naming both plugins, the container and the variable is recorded.
  void setEnv(std::string_view scope, Container& container, EnvVar var);
  const std::vector<std::string>& conflicts() const { return conflicts_; }
  void clearConflicts() { conflicts_.clear(); }

 private:
  struct Entry {
    std::string key;  // scope \x1f container \x1f var
    std::string plugin;
    EnvVar value;
  };
  std::string actor_;
  std::vector<Entry> entries_;
  std::vector<std::string> conflicts_;
};

/// One task's pods as the pipeline sees them (Trainer's PodSet). Index i of RuntimeInfo::podSets
/// is spec.tasks[i].
struct PodSet {
  std::string name;  // task name
  int32_t count = 0;  // replicas
  std::vector<Container> initContainers;
  std::vector<Container> containers;
  std::vector<Volume> volumes;
  StringMap podLabels;       // added to every pod of this set
  StringMap podAnnotations;  // added to every pod of this set
  std::string subdomain;     // set by PodNetwork plugins
  /// One entry per pod, "<hostname>.<subdomain>", set by PodNetwork plugins.
  std::vector<std::string> endpoints;
  /// Requests of one pod (containers summed, max with each init container), from the template.
  ResourceList singlePodRequests;
};

/// Scheduler-facing data applied to every pod of the job (Trainer's Info.Scheduler).
struct SchedulerInfo {
  StringMap podLabels;
  StringMap podAnnotations;
};

/// The per-job record the pipeline points read and change. Created by the host for one job,
/// passed by reference to each plugin in turn on the job's worker thread; plugins must not keep
/// references to it after their call returns.
struct RuntimeInfo {
  explicit RuntimeInfo(const Job& j) : job(j) {}

  const Job& job;  // the defaulted, admitted job (read only)
  StringMap labels;       // put on the job's PodGroup after the pipeline (Trainer's JobSet labels)
  StringMap annotations;  // the same, for annotations
  SchedulerInfo scheduler;
  std::vector<PodSet> podSets;
  PodGroup podGroup;  // the job's PodGroup as the host built it; PodGroupPolicy plugins may edit it
  EnvLedger ledger;

  PodSet* findPodSet(std::string_view name) {
    for (auto& p : podSets)
      if (p.name == name) return &p;
    return nullptr;
  }
  const PodSet* findPodSet(std::string_view name) const {
    for (const auto& p : podSets)
      if (p.name == name) return &p;
    return nullptr;
  }
  /// Upserts an env var into a container of a pod set, with conflict tracking.
  void setEnv(PodSet& set, Container& container, EnvVar var) {
    ledger.setEnv("task " + set.name, container, std::move(var));
  }
};

}  // namespace jobhost
