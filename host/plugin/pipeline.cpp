// Runs the pipeline points in their fixed order. Mutations made before a failure stay in the
// RuntimeInfo (Trainer semantics); a failing ComponentBuild plugin's partial output is discarded.
#include "host/plugin/pipeline.h"

#include "host/plugin/plugin_call.h"
#include "host/workload/pod_group.h"
#include "host/workload/resources.h"

namespace jobhost {
namespace {

const Components kNoComponents;

std::string failedIn(const ActivePlugin& a, Point point, const std::string& message) {
  return "plugin \"" + a.plugin->names[0] + "\" failed in " + toString(point) + ": " + message;
}

Status conflicts(const RuntimeInfo& info) {
  if (info.ledger.conflicts().empty()) return Status::ok();
  std::string all;
  for (const auto& c : info.ledger.conflicts()) all += (all.empty() ? "" : "; ") + c;
  return Status::error("env conflict: " + all);
}

// Pod sets mirror the job's tasks (Volcano creates `replicas` pods per task); a plugin that adds,
// drops, renames or resizes one is told so instead of the change being silently ignored.
Status podSetsIntact(const RuntimeInfo& info) {
  const auto& tasks = info.job.spec.tasks;
  if (info.podSets.size() != tasks.size())
    return Status::error("changed the number of pod sets from " + std::to_string(tasks.size()) + " to " +
                         std::to_string(info.podSets.size()) + ": pod sets are the job's tasks");
  for (size_t i = 0; i < tasks.size(); ++i) {
    const PodSet& set = info.podSets[i];
    const std::string at = "podSets[" + std::to_string(i) + "]";
    if (set.name != tasks[i].name)
      return Status::error("renamed " + at + " from \"" + tasks[i].name + "\" to \"" + set.name + "\"");
    if (set.count != tasks[i].replicas)
      return Status::error("changed " + at + ".count from " + std::to_string(tasks[i].replicas) + " to " +
                           std::to_string(set.count) + ": a pod set's count is its task's replicas (spec.tasks[" +
                           std::to_string(i) + "].replicas); set those in the job instead");
  }
  return Status::ok();
}

template <class Call>
Status runPoint(const Registry& registry, const PipelineResult& result, Point point, RuntimeInfo& info, Call&& call) {
  for (const ActivePlugin* active : result.activeAt(registry, point)) {
    info.ledger.setActor(active->plugin->names[0]);
    Status st = callPlugin(*active->plugin, toString(point), [&] { return call(*active->plugin->loaded.instance, *active); });
    if (!st) return Status::error(failedIn(*active, point, st.message()));
    if (Status shape = podSetsIntact(info); !shape) return Status::error(failedIn(*active, point, shape.message()));
    if (Status c = conflicts(info); !c) return c;
  }
  return Status::ok();
}

/// Trainer puts Info's labels and annotations on the JobSet, the job-level object it builds; here
/// that is the job's PodGroup. They go over the job's own, which Volcano copies onto it.
void labelPodGroup(RuntimeInfo& info) {
  for (const auto& [key, value] : info.labels) info.podGroup.metadata.labels.insert_or_assign(key, value);
  for (const auto& [key, value] : info.annotations) info.podGroup.metadata.annotations.insert_or_assign(key, value);
}

}  // namespace

const Components& PipelineResult::builtBy(const RegisteredPlugin* plugin) const {
  for (const auto& b : built)
    if (b.plugin == plugin) return b.components;
  return kNoComponents;
}

std::vector<const ActivePlugin*> PipelineResult::activeAt(const Registry& registry, Point point) const {
  std::vector<const ActivePlugin*> out;
  for (const RegisteredPlugin* r : registry.at(point))
    for (const ActivePlugin& a : active)
      if (a.plugin == r) out.push_back(&a);
  return out;
}

std::unique_ptr<RuntimeInfo> newRuntimeInfo(const Job& job, const std::map<std::string, int32_t>& priorities) {
  auto info = std::make_unique<RuntimeInfo>(job);
  info->podSets.reserve(job.spec.tasks.size());
  for (const auto& task : job.spec.tasks) {
    PodSet set;
    set.name = task.name;
    set.count = task.replicas;
    set.initContainers = task.template_.spec.initContainers;
    set.containers = task.template_.spec.containers;
    set.volumes = task.template_.spec.volumes;
    set.singlePodRequests = podRequests(task.template_.spec);
    info->podSets.push_back(std::move(set));
  }
  info->podGroup = buildPodGroup(job, priorities);
  return info;
}

PipelineResult runPipeline(const Registry& registry, const Job& job,
                                     const std::map<std::string, int32_t>& priorities) {
  // The work is shared with the thread that runs it: a plugin call abandoned at its deadline keeps
  // that thread, and with it the job snapshot, args and RuntimeInfo it reads, alive for good.
  struct Work {
    PipelineResult result;
    bool finished = false;  // written by the running thread once every point ran
  };
  auto work = std::make_shared<Work>();
  PipelineResult& result = work->result;
  result.job = std::make_shared<const Job>(job);
  for (const RegisteredPlugin& plugin : registry.plugins())
    if (registry.isActive(plugin, job)) result.active.push_back({&plugin, registry.argsFor(plugin, job)});
  result.info = newRuntimeInfo(*result.job, priorities);

  // One guard-thread handoff for the whole pipeline when any loaded plugin has a call deadline.
  Status st = callPluginsTogether(registry.anyCallDeadline(), [&work, &registry] {
    const std::shared_ptr<Work> keep = work;  // on the running thread's own stack
    PipelineResult& result = keep->result;
    RuntimeInfo& info = *result.info;
    Status step = runPoint(registry, result, Point::MLPolicy, info, [&](PluginInstance& p, const ActivePlugin& a) {
      return p.mlPolicy()->enforceMLPolicy(info, a.args);
    });
    if (step) step = runPoint(registry, result, Point::PodGroupPolicy, info, [&](PluginInstance& p, const ActivePlugin& a) {
      return p.podGroupPolicy()->enforcePodGroupPolicy(info, a.args);
    });
    if (step) step = runPoint(registry, result, Point::PodNetwork, info, [&](PluginInstance& p, const ActivePlugin& a) {
      return p.podNetwork()->identifyPodNetwork(info, a.args);
    });
    if (step) step = runPoint(registry, result, Point::ComponentBuild, info, [&](PluginInstance& p, const ActivePlugin& a) {
      BuiltComponents built{a.plugin, {}};
      Status s = p.componentBuild()->build(info, a.args, built.components);
      if (s) result.built.push_back(std::move(built));  // on failure the partial output is dropped
      return s;
    });
    keep->finished = true;
    return step;
  });
  if (!work->finished) {  // abandoned: the running thread still owns the work
    PipelineResult failed;
    failed.status = st;
    return failed;
  }
  if (!st) result.built.clear();  // ComponentBuild is fail fast: nothing built survives a failure
  if (st) labelPodGroup(*result.info);
  result.status = st;
  return std::move(result);
}

}  // namespace jobhost
