// SimCluster: the in-process cluster backend. Nodes with CPU/memory/GPU, a gang scheduler for
// PodGroups (with scheduleTimeoutSeconds), scripted pods on the clock, and an ordered event stream.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "host/cluster/backend.h"
#include "host/cluster/sim/pod_behaviour.h"
#include "host/config/config.h"
#include "host/controller/clock.h"

namespace jobhost {

/// CPU and memory in milli-units, GPUs whole (nvidia.com/gpu).
struct SimResources {
  int64_t cpuMilli = 0;
  int64_t memoryMilli = 0;
  int64_t gpu = 0;
  bool fitsIn(const SimResources& free) const {
    return cpuMilli <= free.cpuMilli && memoryMilli <= free.memoryMilli && gpu <= free.gpu;
  }
  SimResources& operator+=(const SimResources& o) {
    cpuMilli += o.cpuMilli;
    memoryMilli += o.memoryMilli;
    gpu += o.gpu;
    return *this;
  }
  SimResources& operator-=(const SimResources& o) {
    cpuMilli -= o.cpuMilli;
    memoryMilli -= o.memoryMilli;
    gpu -= o.gpu;
    return *this;
  }
};

/// Threading: backend calls may come from any thread; deliver()/schedule() and the script actions
/// run on the driver's thread. State changes only queue events; deliver() hands them over (listener outside the
/// lock), so the controller never sees a change from inside one of its own calls.
class SimCluster final : public ClusterBackend {
 public:
  SimCluster(Clock& clock, const SimBackendConfig& config);
  ~SimCluster() override;

  /// How each pod incarnation behaves (default: PodBehaviour{}).
  void setBehaviour(PodBehaviourFn fn);
  /// Called from deliver() (before the listener, outside the lock) with a PodGroup whose
  /// Unschedulable condition was set or changed by a scheduling pass.
  void setUnschedulableObserver(std::function<void(const PodGroup&)> fn);

  /// Applies due pod transitions and script actions, then delivers every waiting event as one
  /// batch. Returns false when there was nothing to do.
  bool deliver();
  /// Runs one gang-scheduler pass if anything changed since the last one (its events wait for
  /// the next deliver()). Returns false when nothing changed.
  bool schedule();

  /// Script actions, applied at the next deliver(): evict (delete) a pod; lose a node (its pods are
  /// deleted and its capacity is gone).
  void evictPod(const std::string& ns, const std::string& name);
  void loseNode(int index);
  /// Pre-creates a PVC (claims a job names must exist).
  void addPvc(const std::string& ns, const std::string& name);
  /// The next `count` pod creations fail with a server error (tests of retries).
  void failPodCreates(int count);

  // Inspection (tests, simulate).
  std::optional<PodState> getPod(const std::string& ns, const std::string& name);
  std::vector<std::string> podNames();
  std::string nodeOf(const std::string& ns, const std::string& name);
  size_t podCount();
  /// Events delivered so far (benchmarks).
  uint64_t eventsDelivered() const { return delivered_.load(); }

  // ClusterBackend
  void setListener(ClusterListener* listener) override;
  ClusterStatus createPod(Pod pod, PodState* created) override;
  ClusterStatus deletePod(const std::string& ns, const std::string& name) override;
  ClusterStatus annotatePod(const std::string& ns, const std::string& name, const std::string& key,
                            const std::string& value) override;
  ClusterStatus createPodGroup(const PodGroup& pg) override;
  ClusterStatus updatePodGroupSpec(const PodGroup& pg) override;
  ClusterStatus deletePodGroup(const std::string& ns, const std::string& name) override;
  std::optional<PodGroup> getPodGroup(const std::string& ns, const std::string& name) override;
  std::optional<std::string> podGroupPhase(const std::string& ns, const std::string& name) override;
  ClusterStatus createPvc(const std::string& ns, const std::string& name, const std::string& ownerUid) override;
  bool pvcExists(const std::string& ns, const std::string& name) override;
  ClusterStatus applyObjects(const std::string& ns, const Components& objects) override;
  ClusterStatus removeObject(const std::string& ns, ObjectKind kind, const std::string& name) override;
  std::optional<ConfigMap> getConfigMap(const std::string& ns, const std::string& name) override;
  std::optional<Secret> getSecret(const std::string& ns, const std::string& name) override;
  bool hasConfigMapData(const std::string& ns, const std::string& name,
                        const std::map<std::string, std::string>& data) override;
  bool objectExists(const std::string& ns, ObjectKind kind, const std::string& name) override;
  void deleteOwnedBy(const std::string& ns, const std::string& ownerUid) override;
  void echoJobChange(const std::string& ns, const std::string& name) override;

 private:
  struct Node {
    std::string name;
    SimResources capacity;
    SimResources used;
    int pods = 0;
    bool lost = false;
  };
  struct SimPod {
    PodState state;
    std::string group;  // "<ns>/<PodGroup name>" from scheduling.k8s.io/group-name
    SimResources request;
    PodBehaviour behaviour;
    uint64_t seq = 0;
    int node = -1;
    bool holdsResources = false;
  };
  struct SimGroup {
    PodGroup pg;
    TimeMs createdAt = 0;
    bool reserved = false;  // enqueued, minResources held until it runs
    bool placed = false;    // minMember pods bound (or succeeded) at the last pass
    bool reported = false;  // its Unschedulable condition changed during this pass
  };
  struct Due {
    enum class Kind { Start, Ready, Restart, Exit, Evict, LoseNode };
    Kind kind;
    std::string key;  // pod key
    std::string uid;
    int node = 0;
  };
  struct Objects {
    std::map<std::string, ConfigMap> configMaps;
    std::map<std::string, Secret> secrets;
    std::map<std::string, Service> services;
    std::map<std::string, NetworkPolicy> networkPolicies;
  };

  // All below: mutex_ held.
  void emitPodUpdate(SimPod& pod, PodPhase oldPhase, uint64_t oldVersion);
  void removePod(const std::string& key);
  void releaseResources(SimPod& pod);
  void scheduleDue(int64_t delayMs, Due due);
  void applyDue(const Due& due);
  void startPod(SimPod& pod);
  void exitPod(SimPod& pod);
  void schedulePass();  // gang_scheduler.cpp
  void setGroupPhase(SimGroup& group, const std::string& phase);
  void reportUnschedulable(SimGroup& group, bool changed);  // queued for deliver() at the pass end
  void armScheduleTimeout(const SimGroup& group);
  static SimResources requestOf(const Pod& pod);
  static SimResources amountsOf(const ResourceList& list);

  Clock& clock_;
  std::shared_ptr<Lifeline> lifeline_ = std::make_shared<Lifeline>();
  std::mutex mutex_;
  ClusterListener* listener_ = nullptr;
  PodBehaviourFn behaviour_;
  std::function<void(const PodGroup&)> unschedulableObserver_;
  std::vector<PodGroup> unschedulable_;  // reports waiting for deliver()
  std::vector<Node> nodes_;
  std::unordered_map<std::string, SimPod> pods_;
  std::unordered_map<std::string, int> incarnations_;
  std::unordered_map<std::string, SimGroup> groups_;  // the scheduler orders them by creation
  std::map<std::string, std::set<std::pair<uint64_t, std::string>>> groupPods_;
  std::map<std::string, std::string> pvcs_;  // key -> owner uid
  std::map<std::string, Objects> objects_;   // by namespace
  std::vector<ClusterEvent> events_;
  std::vector<Due> due_;
  uint64_t resourceVersion_ = 0;
  uint64_t podSeq_ = 0;
  int failCreates_ = 0;
  bool dirty_ = false;
  std::atomic<uint64_t> delivered_{0};
};

}  // namespace jobhost
