// The torch plugin (Volcano's `pytorch`, also `torch`): MASTER_*/WORLD_SIZE/RANK then torchrun's PET_*
// env, the port, wait-for-master. Points: Validation, MLPolicy (pod-set-wide), JobHooks (per pod).
#include <jobhost/jobhost.h>

#include <algorithm>

#include "torch_env.h"
#include "torch_options.h"
#include "torch_validation.h"

namespace {
using namespace jobhost;

// Outside Validation, use whatever parsed, like Volcano: admission already reported a bad flag.
torch::TorchOptions effectiveOptions(const Job& job, const PluginArgs& args) {
  torch::TorchOptions options;
  static_cast<void>(torch::parseTorchOptions(args, torch::jobPluginName(job), options));
  return options;
}

// Volcano's GetTaskKey: the pod's task-spec annotation, or "default".
std::string taskKey(const Pod& pod) {
  const auto it = pod.metadata.annotations.find(std::string(keys::TaskSpec));
  return it == pod.metadata.annotations.end() || it->second.empty() ? std::string(keys::DefaultTaskSpec)
                                                                      : it->second;
}

// Volcano's GetPodIndexUnderTask: the last part of "<job>-<task>-<index>".
std::string podIndex(const std::string& podName) {
  if (std::count(podName.begin(), podName.end(), '-') < 2) return "";
  return podName.substr(podName.rfind('-') + 1);
}

class TorchPlugin final : public ValidationPlugin, public MLPolicyPlugin, public JobHooksPlugin {
 public:
  Status configure(const PluginSettings& settings) {
    torch::TorchOptions options;
    return torch::parseTorchOptions(settings.defaultArgs, "torch", options);
  }

  Status validate(const Job& job, const Job*, const PluginArgs& args, ValidationResult& out) override {
    torch::validateTorchJob(job, args, out);
    return Status::ok();
  }

  // What is the same for every pod of a set; RANK and PET_NODE_RANK of workers vary per pod and
  // are left to onPodCreate.
  Status enforceMLPolicy(RuntimeInfo& info, const PluginArgs& args) override {
    const torch::TorchOptions options = effectiveOptions(info.job, args);
    const auto job = torch::torchJob(info.job, options);
    if (!job) return Status::ok();
    for (auto& set : info.podSets) {
      const bool master = set.name == options.master && set.name != options.worker;
      const auto rank = master ? std::optional<int64_t>(0) : std::nullopt;
      const auto env = torch::torchEnv(*job, options, rank, torch::nprocPerNode(options, set.containers));
      for (auto& c : set.containers) {
        jobhost::volcano::openPort(c, "pytorchjob-port", options.port);
        for (const auto& var : torch::withoutUserTorchrunEnv(env, info.job, set.name, c.name)) info.setEnv(set, c, var);
      }
      if (options.waitMasterEnabled && set.name == options.worker)
        torch::addWaitForMaster(set.initContainers, options, job->masterAddr);
    }
    return Status::ok();
  }

  Status onJobAdd(JobContext& ctx) override {
    const std::string name = torch::jobPluginName(ctx.job());
    ctx.controlledResources()["plugin-" + name] = name;
    return Status::ok();
  }

  Status onPodCreate(JobContext& ctx, Pod& pod) override {
    const torch::TorchOptions options = effectiveOptions(ctx.job(), ctx.args());
    const auto job = torch::torchJob(ctx.job(), options);
    if (!job) return Status::ok();  // Volcano: no master task, pod untouched
    const std::string task = taskKey(pod);
    std::optional<int64_t> rank;
    if (Status st = torch::rankOf(options, task, podIndex(pod.metadata.name), rank); !st) return st;
    const auto env = torch::torchEnv(*job, options, rank, torch::nprocPerNode(options, pod.spec.containers));
    for (auto& c : pod.spec.containers) {
      jobhost::volcano::openPort(c, "pytorchjob-port", options.port);
      const auto injected = torch::withoutUserTorchrunEnv(env, ctx.job(), task, c.name);
      for (const auto& var : injected) ctx.setEnv(c, var);
      torch::moveToEnd(c.env, injected);
    }
    if (options.waitMasterEnabled && task == options.worker)
      torch::addWaitForMaster(pod.spec.initContainers, options, job->masterAddr);
    return Status::ok();
  }

  Status onJobUpdate(JobContext&) override { return Status::ok(); }

  Status onJobDelete(JobContext& ctx) override {
    ctx.controlledResources().erase("plugin-" + torch::jobPluginName(ctx.job()));
    return Status::ok();
  }
};

}  // namespace

JOBHOST_PLUGIN(TorchPlugin, "torch", "0.1.0")
