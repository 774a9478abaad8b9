// HookContext and the resource client handed to hooks that may not touch the cluster
// (onPodCreate runs while a pod is being built, before anything is created).
#include "host/plugin/hook_context.h"

namespace jobhost {
namespace {

class NoResources final : public ResourceClient {
 public:
  Status apply(const Components&) override { return refuse(); }
  Status remove(ObjectKind, const std::string&) override { return refuse(); }
  std::optional<ConfigMap> getConfigMap(const std::string&) override { return std::nullopt; }
  std::optional<Secret> getSecret(const std::string&) override { return std::nullopt; }
  bool exists(ObjectKind, const std::string&) override { return false; }
  bool hasConfigMapData(const std::string&, const std::map<std::string, std::string>&) override { return false; }

 private:
  static Status refuse() {
    return Status::error("cluster objects cannot be changed from onPodCreate; create them in onJobAdd");
  }
};

}  // namespace

ResourceClient& HookContext::resources() {
  static NoResources none;
  return client_ != nullptr ? *client_ : none;
}

}  // namespace jobhost
