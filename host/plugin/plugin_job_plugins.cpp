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
  std::vector<PluginShare> shares;  // hooks[i]'s name, args, built components and data slot
  /// hooks[i]'s JobContext::pluginData slot. Only the job's worker runs its hooks, one at a time.
  std::unique_ptr<std::shared_ptr<void>[]> data;
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
  if (!st) st = Status::error("plugin \"" + a.plugin->names[0] + "\" failed in " + hook + ": " + st.message());
  return st;  // one object for both outcomes: returned without a copy
}

}  // namespace

PluginJobPlugins::PluginJobPlugins(std::shared_ptr<const Registry> registry, std::map<std::string, int32_t> priorities)
    : registry_(std::move(registry)), priorities_(std::move(priorities)), anyDeadline_(registry_->anyCallDeadline()) {}

Expected<std::shared_ptr<const PluginJobPlugins::Prepared>> PluginJobPlugins::store(const Job& job) {
  auto result = std::make_shared<PipelineResult>(runPipeline(*registry_, job, priorities_));
  if (!result->status) return Expected<std::shared_ptr<const Prepared>>::failure(result->status.message());
  auto p = std::make_shared<Prepared>();
  for (const ActivePlugin* a : result->activeAt(*registry_, Point::JobHooks)) p->hooks.push_back(*a);
  p->data = std::make_unique<std::shared_ptr<void>[]>(p->hooks.size());
  for (size_t i = 0; i < p->hooks.size(); ++i)
    p->shares.push_back({&p->hooks[i].plugin->names[0], &p->hooks[i].args, &result->builtBy(p->hooks[i].plugin), &p->data[i]});
  p->anyDeadline = anyHasDeadline(p->hooks);
  if (auto status = result->activeAt(*registry_, Point::Status); !status.empty()) p->status = status[0]->plugin;
  p->result = std::move(result);
  Shard& shard = shardOf(job.metadata.uid);
  std::lock_guard lock(shard.mutex);
  shard.byUid[job.metadata.uid] = p;
  return std::shared_ptr<const Prepared>(std::move(p));
}

Status PluginJobPlugins::prepare(const Job& job) { return store(job).status(); }

void PluginJobPlugins::forget(const std::string& jobUid) {
  Shard& shard = shardOf(jobUid);
  std::lock_guard lock(shard.mutex);
  shard.byUid.erase(jobUid);
}

std::shared_ptr<const PluginJobPlugins::Prepared> PluginJobPlugins::find(const std::string& uid) {
  Shard& shard = shardOf(uid);
  std::lock_guard lock(shard.mutex);
  auto it = shard.byUid.find(uid);
  return it == shard.byUid.end() ? nullptr : it->second;
}

Expected<std::shared_ptr<const PluginJobPlugins::Prepared>> PluginJobPlugins::lookup(const Job& job) {
  if (auto p = find(job.metadata.uid)) return p;
  return store(job);
}

Expected<std::shared_ptr<const PipelineResult>> PluginJobPlugins::prepared(const Job& job) {
  auto p = lookup(job);
  if (!p) return Expected<std::shared_ptr<const PipelineResult>>::failure(p.error());
  return (*p)->result;
}

Expected<std::vector<Pod>> PluginJobPlugins::makePods(const Job& job, const std::vector<PodSlot>& slots,
                                                      bool jobForwarding) {
  using Result = Expected<std::vector<Pod>>;
  auto p = lookup(job);
  if (!p) return Result::failure(p.error());
  const Prepared& prepared = **p;
  const PipelineResult& r = *prepared.result;
  auto built = buildPods(job, slots, r.info.get(), jobForwarding);
  if (!built) return Result::failure("task index out of range");
  std::vector<Pod>& pods = *built;
  if (prepared.hooks.empty()) return std::move(pods);
  auto controlled = ControlledResources::copyOf(job.status.controlledResources);  // onPodCreate must not change the job
  HookEnv env("pod", job.metadata.name);
  std::string conflict;
  Status st = callPluginsTogether(prepared.anyDeadline, [&] {
    for (Pod& pod : pods) {
      env.reset(pod.metadata.name);
      for (size_t i = 0; i < prepared.hooks.size(); ++i) {
        const ActivePlugin& a = prepared.hooks[i];
        HookContext ctx(job, *r.info, prepared.shares[i], controlled, nullptr, env);
        Status one = guarded(a, "OnPodCreate", [&] { return a.plugin->loaded.instance->jobHooks()->onPodCreate(ctx, pod); });
        if (!one) return one;
      }
      if (!env.conflict().empty()) {
        conflict = env.conflict();
        return Status::ok();
      }
    }
    return Status::ok();
  });
  if (!st) return Result::failure(st.message());
  if (!conflict.empty()) return Result::failure("env conflict: " + conflict);
  return std::move(pods);
}

Expected<PodGroup> PluginJobPlugins::makePodGroup(const Job& job) {
  auto p = lookup(job);
  if (!p) return Expected<PodGroup>::failure(p.error());
  PodGroup pg = (*p)->result->info->podGroup;
  // The PodGroup copies the job's annotations; syncJob's step 2 sets job-forwarding on the job
  // after the pipeline built this one.
  const std::string forwarding(keys::JobForwarding);
  if (auto it = job.metadata.annotations.find(forwarding); it != job.metadata.annotations.end())
    pg.metadata.annotations.insert_or_assign(forwarding, it->second);
  return pg;
}

Status PluginJobPlugins::runHook(Hook hook, Job& job, ResourceClient& client) {
  auto p = lookup(job);
  if (!p) return Status::error(p.error());
  const Prepared& prepared = **p;
  auto controlled = ControlledResources::of(job.status.controlledResources);
  HookEnv env("job", job.metadata.name);
  return callPluginsTogether(prepared.anyDeadline, [&] {
    for (size_t i = 0; i < prepared.hooks.size(); ++i) {
      const ActivePlugin& a = prepared.hooks[i];
      HookContext ctx(job, *prepared.result->info, prepared.shares[i], controlled, &client, env);
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
