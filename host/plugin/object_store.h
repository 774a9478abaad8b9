// ObjectStore: an in-memory ResourceClient that keeps the ConfigMaps, Secrets, Services and
// NetworkPolicies hooks create, in creation order — what `render` shows and tests inspect.
#pragma once

#include <string>
#include <vector>

#include "jobhost/extension_points.h"

namespace jobhost {

class ObjectStore final : public ResourceClient {
 public:
  Status apply(const Components& objects) override;
  Status remove(ObjectKind kind, const std::string& name) override;
  std::optional<ConfigMap> getConfigMap(const std::string& name) override;
  std::optional<Secret> getSecret(const std::string& name) override;
  bool exists(ObjectKind kind, const std::string& name) override;
  bool hasConfigMapData(const std::string& name, const std::map<std::string, std::string>& data) override;

  /// Everything currently stored, each kind in creation order.
  const Components& objects() const { return objects_; }
  /// Calls made, e.g. "apply ConfigMap pi-svc", "remove Secret pi-ssh" (never object contents).
  const std::vector<std::string>& calls() const { return calls_; }

 private:
  Components objects_;
  std::vector<std::string> calls_;
};

}  // namespace jobhost
