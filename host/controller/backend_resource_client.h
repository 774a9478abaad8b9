// BackendResourceClient: the ResourceClient JobHooks receive, over the cluster backend, scoped
// to the job's namespace; objects created through it get the job as controller owner.
#pragma once

#include "host/cluster/backend.h"
#include "jobhost/extension_points.h"
#include "jobhost/job.h"

namespace jobhost {

class BackendResourceClient final : public ResourceClient {
 public:
  BackendResourceClient(ClusterBackend& backend, const Job& job) : backend_(backend), job_(job) {}

  Status apply(const Components& objects) override;
  Status remove(ObjectKind kind, const std::string& name) override;
  std::optional<ConfigMap> getConfigMap(const std::string& name) override;
  std::optional<Secret> getSecret(const std::string& name) override;
  bool exists(ObjectKind kind, const std::string& name) override;
  bool hasConfigMapData(const std::string& name, const std::map<std::string, std::string>& data) override;
  uint64_t configMapVersion(const std::string& name) override;

 private:
  ClusterBackend& backend_;
  const Job& job_;
};

}  // namespace jobhost
