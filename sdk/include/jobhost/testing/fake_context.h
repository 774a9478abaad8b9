// FakeResourceClient and FakeJobContext: an in-memory JobContext for unit tests that call a
// plugin's hooks directly (Harness::plugin()); records every create/update/delete.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "jobhost/testing/export.h"
#include "jobhost/extension_points.h"

namespace jobhost::testing {

/// Objects of one namespace, keyed by name; `calls` lists "apply <Kind> <name>" and
/// "remove <Kind> <name>" in order (reads are not recorded).
class JOBHOST_TESTING_API FakeResourceClient final : public ResourceClient {
 public:
  Status apply(const Components& objects) override;
  Status remove(ObjectKind kind, const std::string& name) override;
  std::optional<ConfigMap> getConfigMap(const std::string& name) override;
  std::optional<Secret> getSecret(const std::string& name) override;
  bool exists(ObjectKind kind, const std::string& name) override;
  bool hasConfigMapData(const std::string& name, const std::map<std::string, std::string>& data) override;

  std::vector<std::string> calls;
  std::map<std::string, ConfigMap> configMaps;
  std::map<std::string, Secret> secrets;
  std::map<std::string, Service> services;
  std::map<std::string, NetworkPolicy> networkPolicies;
};

/// One hook call's view of a job. The job (and its controlledResources) and the client are the
/// caller's, so state carries over between hook calls like it does in the controller.
class JOBHOST_TESTING_API FakeJobContext final : public JobContext {
 public:
  FakeJobContext(Job& job, const RuntimeInfo& info, ResourceClient& client, PluginArgs args,
                 Components built = {})
      : job_(job), info_(info), client_(client), args_(std::move(args)), built_(std::move(built)) {}

  const Job& job() const override { return job_; }
  std::map<std::string, std::string>& controlledResources() override {
    return job_.status.controlledResources;
  }
  const PluginArgs& args() const override { return args_; }
  const Components& built() const override { return built_; }
  const RuntimeInfo& runtimeInfo() const override { return info_; }
  ResourceClient& resources() override { return client_; }
  void setEnv(Container& container, EnvVar var) override { ledger.setEnv("pod", container, std::move(var)); }
  std::shared_ptr<void>* pluginData() override { return &data; }

  EnvLedger ledger;
  std::shared_ptr<void> data;  // the plugin's per-job slot, kept between calls made with this context

 private:
  Job& job_;
  const RuntimeInfo& info_;
  ResourceClient& client_;  // usually a FakeResourceClient; any client, e.g. one that fails on purpose
  PluginArgs args_;
  Components built_;
};

}  // namespace jobhost::testing
