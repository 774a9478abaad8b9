// HookContext: the host's JobContext for one JobHooks call — the job, its controlled resources,
// the plugin's args, built components and per-job data slot, the pipeline result, and env tracking.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>

#include "host/plugin/hook_env.h"
#include "jobhost/extension_points.h"

namespace jobhost {

/// One plugin's share of a prepared job, the same for all its hook calls for the job: its name, its
/// args, its ComponentBuild output and its JobContext::pluginData slot. Owned by the prepared job.
struct PluginShare {
  const std::string* name = nullptr;
  const PluginArgs* args = nullptr;
  const Components* built = nullptr;
  std::shared_ptr<void>* data = nullptr;
};

/// What hooks see as controlledResources: the job's own map, or (onPodCreate, which must not
/// change the job) a scratch copy of it, made on first use and shared by the calls of one batch.
class ControlledResources {
 public:
  static ControlledResources of(std::map<std::string, std::string>& job) { return ControlledResources(&job, nullptr); }
  static ControlledResources copyOf(const std::map<std::string, std::string>& job) { return ControlledResources(nullptr, &job); }
  std::map<std::string, std::string>& get() {
    if (map_ == nullptr) map_ = &copy_.emplace(*source_);
    return *map_;
  }

 private:
  ControlledResources(std::map<std::string, std::string>* map, const std::map<std::string, std::string>* source)
      : map_(map), source_(source) {}
  std::map<std::string, std::string>* map_;
  const std::map<std::string, std::string>* source_;
  std::optional<std::map<std::string, std::string>> copy_;
};

class HookContext final : public JobContext {
 public:
  /// `client` may be null (onPodCreate): resources() then answers every call with an error. Every
  /// argument is the caller's and must outlive the context.
  HookContext(const Job& job, const RuntimeInfo& info, const PluginShare& share, ControlledResources& controlled,
              ResourceClient* client, HookEnv& env)
      : job_(job), info_(info), share_(share), controlled_(controlled), client_(client), env_(env) {}

  const Job& job() const override { return job_; }
  std::map<std::string, std::string>& controlledResources() override { return controlled_.get(); }
  const PluginArgs& args() const override { return *share_.args; }
  const Components& built() const override { return *share_.built; }
  const RuntimeInfo& runtimeInfo() const override { return info_; }
  ResourceClient& resources() override;
  void setEnv(Container& container, EnvVar var) override { env_.setEnv(*share_.name, container, std::move(var)); }
  std::shared_ptr<void>* pluginData() override { return share_.data; }

 private:
  const Job& job_;
  const RuntimeInfo& info_;
  const PluginShare& share_;
  ControlledResources& controlled_;
  ResourceClient* client_;
  HookEnv& env_;
};

}  // namespace jobhost
