// HookContext: the host's JobContext for one JobHooks call — the job, its controlled resources,
// the plugin's args and built components, the pipeline result, and env conflict tracking.
#pragma once

#include <string>

#include "jobhost/extension_points.h"

namespace jobhost {

class HookContext final : public JobContext {
 public:
  /// `controlled` is the map hooks see as controlledResources (the job's own, or a scratch copy
  /// for onPodCreate). `client` may be null (onPodCreate): resources() then answers every call with an error.
  HookContext(const Job& job, std::map<std::string, std::string>& controlled, const PluginArgs& args, const Components& built, const RuntimeInfo& info,
              ResourceClient* client, EnvLedger& ledger, const std::string& scope);
  /// The context keeps a reference to `scope`: a temporary would dangle.
  HookContext(const Job&, std::map<std::string, std::string>&, const PluginArgs&, const Components&, const RuntimeInfo&,
              ResourceClient*, EnvLedger&, std::string&&) = delete;

  const Job& job() const override { return job_; }
  std::map<std::string, std::string>& controlledResources() override { return controlled_; }
  const PluginArgs& args() const override { return args_; }
  const Components& built() const override { return built_; }
  const RuntimeInfo& runtimeInfo() const override { return info_; }
  ResourceClient& resources() override;
  void setEnv(Container& container, EnvVar var) override { ledger_.setEnv(scope_, container, std::move(var)); }

 private:
  const Job& job_;
  std::map<std::string, std::string>& controlled_;
  const PluginArgs& args_;
  const Components& built_;
  const RuntimeInfo& info_;
  ResourceClient* client_;
  EnvLedger& ledger_;
  const std::string& scope_;  // outlives the context (one per pod or hook round)
};

}  // namespace jobhost
