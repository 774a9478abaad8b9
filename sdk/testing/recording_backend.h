// RecordingBackend: the harness's ClusterBackend, a pass-through to the sim cluster that also
// remembers every pod as created and the names of plugin objects, so tests can list them.
#pragma once

#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "host/cluster/sim/sim_cluster.h"

namespace jobhost::testing {

class RecordingBackend final : public ClusterBackend {
 public:
  explicit RecordingBackend(SimCluster& sim) : sim_(sim) {}

  /// Latest created object of each pod name (nullptr when never created) and creation counts.
  std::shared_ptr<const Pod> created(const std::string& name) const;
  int creations(const std::string& name) const;
  /// Objects of namespace `ns` that exist now on the sim cluster, each kind in first-apply order.
  Components objects(const std::string& ns);
  /// Name of the last PodGroup created ("" when none).
  std::string podGroupName() const;

  void setListener(ClusterListener* l) override { sim_.setListener(l); }
  ClusterStatus createPod(Pod pod, PodState* created) override;
  ClusterStatus deletePod(const std::string& ns, const std::string& n) override { return sim_.deletePod(ns, n); }
  ClusterStatus annotatePod(const std::string& ns, const std::string& n, const std::string& k,
                            const std::string& v) override {
    return sim_.annotatePod(ns, n, k, v);
  }
  ClusterStatus createPodGroup(const PodGroup& pg) override;
  ClusterStatus updatePodGroupSpec(const PodGroup& pg) override { return sim_.updatePodGroupSpec(pg); }
  ClusterStatus deletePodGroup(const std::string& ns, const std::string& n) override {
    return sim_.deletePodGroup(ns, n);
  }
  std::optional<PodGroup> getPodGroup(const std::string& ns, const std::string& n) override {
    return sim_.getPodGroup(ns, n);
  }
  std::optional<std::string> podGroupPhase(const std::string& ns, const std::string& n) override {
    return sim_.podGroupPhase(ns, n);
  }
  ClusterStatus createPvc(const std::string& ns, const std::string& n, const std::string& owner) override {
    return sim_.createPvc(ns, n, owner);
  }
  bool pvcExists(const std::string& ns, const std::string& n) override { return sim_.pvcExists(ns, n); }
  ClusterStatus applyObjects(const std::string& ns, const Components& objects) override;
  ClusterStatus removeObject(const std::string& ns, ObjectKind k, const std::string& n) override {
    return sim_.removeObject(ns, k, n);
  }
  std::optional<ConfigMap> getConfigMap(const std::string& ns, const std::string& n) override {
    return sim_.getConfigMap(ns, n);
  }
  std::optional<Secret> getSecret(const std::string& ns, const std::string& n) override {
    return sim_.getSecret(ns, n);
  }
  bool hasConfigMapData(const std::string& ns, const std::string& n,
                        const std::map<std::string, std::string>& data) override {
    return sim_.hasConfigMapData(ns, n, data);
  }
  uint64_t configMapVersion(const std::string& ns, const std::string& n) override {
    return sim_.configMapVersion(ns, n);
  }
  bool objectExists(const std::string& ns, ObjectKind k, const std::string& n) override {
    return sim_.objectExists(ns, k, n);
  }
  void deleteOwnedBy(const std::string& ns, const std::string& uid) override { sim_.deleteOwnedBy(ns, uid); }
  void echoJobChange(const std::string& ns, const std::string& n) override { sim_.echoJobChange(ns, n); }

 private:
  SimCluster& sim_;
  mutable std::mutex mutex_;
  std::map<std::string, std::shared_ptr<const Pod>> pods_;
  std::map<std::string, int> creations_;
  std::string podGroup_;
  Components applied_;  // last applied version of every object, first-apply order
};

}  // namespace jobhost::testing
