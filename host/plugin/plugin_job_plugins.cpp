// Pods and hooks for the controller from real plugins. Hook errors name the plugin and the hook;
// exceptions that escape a plugin (despite the SDK barrier) are caught here as a second line.
#include "host/plugin/plugin_job_plugins.h"

#include <mutex>

#include "host/common/log.h"
#include "host/plugin/hook_context.h"
#include "host/plugin/plugin_call.h"
#include "host/workload/pod.h"

namespace jobhost {

struct PluginJobPlugins::Prepared {
  std::shared_ptr<const PipelineResult> result;
  std::vector<ActivePlugin> hooks;  // JobHooks plugins active for the job, config order
  bool anyDeadline = false;          // some hook plugin has a callTimeout: batch its calls
  const RegisteredPlugin* status = nullptr;
};

namespace {

const char* hookName(int h) {
  static const char* names[] = {"OnJobAdd", "OnJobUpdate", "OnJobDelete"};
  return names[h];
}

template <class Call>
Status guarded(const ActivePlugin& a, const char* hook, Call&& call, bool isolated = false) {
  Status st = callPlugin(*a.plugin, hook, std::forward<Call>(call), isolated);
  if (st) return st;
  return Status::error("plugin \"" + a.plugin->names[0] + "\" failed in " + hook + ": " + st.message());
}

}  // namespace

PluginJobPlugins::PluginJobPlugins(std::shared_ptr<const Registry> registry, std::map<std::string, int32_t> priorities)
    : registry_(std::move(registry)), priorities_(std::move(priorities)) {
  for (const auto& plugin : registry_->plugins()) anyDeadline_ = anyDeadline_ || plugin.entry.callTimeout.ms > 0;
}

Status PluginJobPlugins::prepare(const Job& job) {
  auto result = runPipeline(*registry_, job, priorities_);
  if (!result.status) return result.status;
  auto p = std::make_shared<Prepared>();
  p->result = std::make_shared<PipelineResult>(std::move(result));
  p->hooks = registry_->activeAt(Point::JobHooks, job);
  p->anyDeadline = anyHasDeadline(p->hooks);
  auto status = registry_->activeAt(Point::Status, job);
  if (!status.empty()) p->status = status[0].plugin;
  std::unique_lock lock(mutex_);
  prepared_[job.metadata.uid] = std::move(p);
  return Status::ok();
}

void PluginJobPlugins::forget(const std::string& jobUid) {
  std::unique_lock lock(mutex_);
  prepared_.erase(jobUid);
}

Expected<std::shared_ptr<const PluginJobPlugins::Prepared>> PluginJobPlugins::lookup(const Job& job) {
  {
    std::shared_lock lock(mutex_);
    if (auto it = prepared_.find(job.metadata.uid); it != prepared_.end()) return it->second;
  }
  if (Status st = prepare(job); !st) return Expected<std::shared_ptr<const Prepared>>::failure(st.message());
  std::shared_lock lock(mutex_);
  return prepared_.at(job.metadata.uid);
}

Expected<std::shared_ptr<const PipelineResult>> PluginJobPlugins::prepared(const Job& job) {
  auto p = lookup(job);
  if (!p) return Expected<std::shared_ptr<const PipelineResult>>::failure(p.error());
  return (*p)->result;
}

Expected<std::vector<Pod>> PluginJobPlugins::makePods(const Job& job, const std::vector<PodSlot>& slots) {
  using Result = Expected<std::vector<Pod>>;
  auto p = lookup(job);
  if (!p) return Result::failure(p.error());
  const PipelineResult& r = *(*p)->result;
  std::vector<Pod> pods;
  pods.reserve(slots.size());
  for (const PodSlot& s : slots) {
    if (s.taskIndex >= job.spec.tasks.size()) return Result::failure("task index out of range");
    const PodSet* set = s.taskIndex < r.info->podSets.size() ? &r.info->podSets[s.taskIndex] : nullptr;
    pods.push_back(buildPod(job, job.spec.tasks[s.taskIndex], s.podIndex, set, &r.info->scheduler));
  }
  if ((*p)->hooks.empty()) return pods;
  auto controlled = job.status.controlledResources;  // onPodCreate must not change the job
  std::string conflict;
  Status st = callPluginsTogether((*p)->anyDeadline, [&] {
    for (Pod& pod : pods) {
      EnvLedger ledger;
      const std::string scope = "pod " + pod.metadata.name;
      for (const auto& a : (*p)->hooks) {
        ledger.setActor(a.plugin->names[0]);
        HookContext ctx(job, controlled, a.args, r.builtBy(a.plugin), *r.info, nullptr, ledger, scope);
        Status one = guarded(a, "OnPodCreate", [&] { return a.plugin->loaded.instance->jobHooks()->onPodCreate(ctx, pod); });
        if (!one) return one;
      }
      if (!ledger.conflicts().empty()) {
        conflict = ledger.conflicts()[0];
        return Status::ok();
      }
    }
    return Status::ok();
  });
  if (!st) return Result::failure(st.message());
  if (!conflict.empty()) return Result::failure("env conflict: " + conflict);
  return pods;
}

Expected<PodGroup> PluginJobPlugins::makePodGroup(const Job& job) {
  auto p = lookup(job);
  if (!p) return Expected<PodGroup>::failure(p.error());
  return (*p)->result->info->podGroup;
}

Status PluginJobPlugins::runHook(Hook hook, Job& job, ResourceClient& client) {
  auto p = lookup(job);
  if (!p) return Status::error(p.error());
  const PipelineResult& r = *(*p)->result;
  EnvLedger ledger;
  const std::string scope = "job " + job.metadata.name;
  return callPluginsTogether((*p)->anyDeadline, [&] {
    for (const auto& a : (*p)->hooks) {
      HookContext ctx(job, job.status.controlledResources, a.args, r.builtBy(a.plugin), *r.info, &client, ledger, scope);
      JobHooksPlugin* hooks = a.plugin->loaded.instance->jobHooks();
      Status st = guarded(a, hookName(static_cast<int>(hook)), [&] {
        switch (hook) {
          case Hook::Add: return hooks->onJobAdd(ctx);
          case Hook::Update: return hooks->onJobUpdate(ctx);
          case Hook::Delete: return hooks->onJobDelete(ctx);
        }
        return Status::ok();
      });
      if (!st) return st;
    }
    return Status::ok();
  });
}

Status PluginJobPlugins::onJobAdd(Job& job, ResourceClient& client) { return runHook(Hook::Add, job, client); }
Status PluginJobPlugins::onJobUpdate(Job& job, ResourceClient& client) { return runHook(Hook::Update, job, client); }
Status PluginJobPlugins::onJobDelete(Job& job, ResourceClient& client) { return runHook(Hook::Delete, job, client); }

void PluginJobPlugins::updateStatus(const Job& job, JobStatus& status) {
  auto p = lookup(job);
  if (!p || (*p)->status == nullptr) return;
  const RegisteredPlugin* plugin = (*p)->status;
  JobStatus candidate = status;
  ActivePlugin a{plugin, {}};
  // A hang here only drops this status: isolated, so it never abandons the caller's batch.
  Status st = guarded(a, "Status", [&] { return plugin->loaded.instance->status()->updateStatus(job, candidate); }, true);
  if (!st) {
    log::get("plugins")->error("{}; keeping the status the controller computed", st.message());
    return;
  }
  status = std::move(candidate);
}

Status PluginJobPlugins::runAbandonable(void (*work)(void*), void* arg) {
  if (!anyDeadline_) return JobPlugins::runAbandonable(work, arg);
  struct Work {
    void (*fn)(void*);
    void* arg;
  } batch{work, arg};
  return deadline::runGuarded(
      [](void* p) {
        static_cast<Work*>(p)->fn(static_cast<Work*>(p)->arg);
        return Status::ok();
      },
      &batch, true);
}

}  // namespace jobhost
