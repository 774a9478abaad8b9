// SimCluster: the in-process cluster backend. Nodes with CPU/memory/GPU, a gang scheduler for
// PodGroups (with scheduleTimeoutSeconds), scripted pods on the clock, and ordered events, in lanes.
#pragma once

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "host/cluster/backend.h"
#include "host/cluster/sim/pod_behaviour.h"
#include "host/cluster/sim/sim_resources.h"
#include "host/common/object_key.h"
#include "host/config/config.h"
#include "host/controller/clock.h"

namespace jobhost {

/// Threading: backend calls may come from any thread. State lives in lanes (one by default; one
/// per controller worker with useLanes()), each a job's pods, PodGroups, scripted transitions and
/// events under the lane's lock, so the workers of different jobs never contend. State changes only
/// queue events: deliver() or takeLane() hands them over, so the controller never sees a change from
/// inside one of its own calls. schedule() and script actions run on the driver's thread.
class SimCluster final : public ClusterBackend, public LaneSource {
 public:
  SimCluster(Clock& clock, const SimBackendConfig& config);
  ~SimCluster() override;

  /// How each pod incarnation behaves (default: PodBehaviour{}). Set before the first pod.
  void setBehaviour(PodBehaviourFn fn);
  /// Called from schedule() (outside the locks) with a PodGroup whose Unschedulable condition was
  /// set or changed by that scheduling pass.
  void setUnschedulableObserver(std::function<void(const PodGroup&)> fn);

  /// Splits the cluster into `count` lanes by job: `route(namespace, job name)` picks the lane of a
  /// job's pods, PodGroup and events, which takeLane() then hands over instead of deliver(). Call
  /// before anything is created.
  using LaneRouter = std::function<size_t(std::string_view ns, std::string_view job)>;
  void useLanes(size_t count, LaneRouter route);

  /// Applies script actions (evictions, lost nodes); without lanes also the due pod transitions,
  /// then delivers every waiting event to the listener as one batch. False when nothing happened.
  bool deliver();
  /// Lanes: whether lane `lane` (or some lane) has events or due transitions waiting.
  bool lanePending(size_t lane);
  bool lanesPending();
  bool takeLane(size_t lane, std::vector<ClusterEvent>& out) override;
  /// Runs one gang-scheduler pass if anything changed since the last one (its events wait in the
  /// lanes) and reports Unschedulable changes. Returns false when nothing changed.
  bool schedule();

  /// Script actions, applied at the next deliver(): evict (delete) a pod; lose a node (its pods are
  /// deleted and its capacity is gone); restore a lost node (back empty, with all its capacity).
  void evictPod(const std::string& ns, const std::string& name);
  void loseNode(int index);
  void restoreNode(int index);
  /// Pre-creates a PVC (claims a job names must exist).
  void addPvc(const std::string& ns, const std::string& name);
  /// The next `count` pod creations fail with a server error (tests of retries).
  void failPodCreates(int count);
  /// Fault injection: this incarnation of the pod refuses patches (annotatePod) and/or deletes
  /// with ClusterErrc::Failed until called again with false. False when the pod does not exist.
  bool refusePodWrites(const std::string& ns, const std::string& name, bool patches, bool deletes);

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
  uint64_t configMapVersion(const std::string& ns, const std::string& name) override;
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
  template <class V>
  using ByKey = std::unordered_map<std::string, V, ObjectKeyHash, ObjectKeyEqual>;  // by "<ns>/<name>"
  /// The pods of one group key, in creation order, and when they last changed in a way the
  /// scheduler counts (added, removed, started, exited): a sim-wide sequence number.
  struct Members {
    std::set<uint64_t> pods;
    uint64_t changed = 0;
  };
  struct SimPod {
    PodState state;
    std::pair<const std::string, Members>* group = nullptr;  // "<ns>/<group-name>" and its pods
    SimResources request;
    PodBehaviour behaviour;
    uint64_t seq = 0;
    std::vector<std::pair<TimeMs, uint64_t>> dues;  // its transitions not yet due: (time, slot id)
    size_t lane = 0;
    int node = -1;
    bool holdsResources = false;
    bool refusePatches = false, refuseDeletes = false;  // refusePodWrites
  };
  struct SimGroup {
    PodGroup pg;
    TimeMs createdAt = 0;
    size_t lane = 0;
    bool reserved = false;  // enqueued, minResources held until it runs
    bool placed = false;    // minMember pods bound (or succeeded) at the last pass
    bool reported = false;  // its Unschedulable condition changed during this pass
    int allocated = 0;      // at the last pass: members bound (holding resources) or succeeded
    int running = 0;        // at the last pass: members Running
    int waiting = 0;        // at the last pass: members left unplaced
    uint64_t seen = 0;      // Members::changed at the last pass
  };
  struct Due {
    enum class Kind { Start, Ready, Restart, Exit, Evict, LoseNode, RestoreNode };
    Kind kind;
    uint64_t pod = 0;  // the pod incarnation's seq (Start, Ready, Restart, Exit)
    std::string key;   // Evict: the pod key
    int node = 0;      // LoseNode, RestoreNode
    uint64_t slot = 0;  // Start, Ready, Restart, Exit: the id of the timeline slot it waited in
  };
  /// The transitions of one lane due at one time, under one clock timer. `live` counts those of
  /// pods that may still act: when it drops to 0 the timer is cancelled, so a run that waits for
  /// nothing left to happen does not wait for a deleted or exited pod's script.
  struct Slot {
    std::vector<Due> dues;
    uint64_t id = 0;
    size_t live = 0;
    TimerHandle timer;
  };
  /// A job's share of the cluster. `mutex` guards everything in it, including the state of its
  /// pods and groups (the scheduler holds every lane's lock).
  struct Lane {
    std::mutex mutex;
    ByKey<SimPod> pods;
    std::unordered_map<uint64_t, SimPod*> podsBySeq;
    ByKey<SimGroup> groups;
    ByKey<Members> groupPods;
    std::map<TimeMs, Slot> timeline;  // scripted transitions not yet due
    uint64_t slots = 0;               // slot ids handed out
    std::vector<Due> due;                         // transitions due now
    std::vector<ClusterEvent> events;
    size_t eventsHighWater = 0;  // the most events one take has handed over
  };
  /// Where a pod or PodGroup lives (its lane; -1 once deleted) and, for pods, how many times a pod
  /// of that name was created. Sharded by name so lookups from different workers rarely contend.
  struct Placement {
    int lane = -1;
    int incarnations = 0;
  };
  struct IndexShard {
    std::mutex mutex;
    ByKey<Placement> byKey;
  };
  struct Objects {
    std::map<std::string, ConfigMap> configMaps;
    std::map<std::string, uint64_t> configMapVersions;  // by name, from configMapWrites_ on each write
    std::map<std::string, Secret> secrets;
    std::map<std::string, Service> services;
    std::map<std::string, NetworkPolicy> networkPolicies;
  };

  size_t laneOfJob(std::string_view ns, std::string_view job) const;
  size_t laneOfPod(const Pod& pod) const;
  size_t laneOfGroup(const PodGroup& pg) const;
  /// The index shard of a key, given as ObjectRef or as the joined string.
  template <class Key>
  IndexShard& shard(std::vector<IndexShard>& index, const Key& key) const {
    return index[ObjectKeyHash{}(key) % index.size()];
  }
  /// The lane a pod / group lives in, or nullptr.
  template <class Key>
  Lane* podLane(const Key& key) const {
    return placedLane(shard(podIndex_, key), key);
  }
  template <class Key>
  Lane* groupLane(const Key& key) const {
    return placedLane(shard(groupIndex_, key), key);
  }
  template <class Key>
  Lane* placedLane(IndexShard& shard, const Key& key) const {
    std::lock_guard lock(shard.mutex);
    auto it = shard.byKey.find(key);
    return it == shard.byKey.end() || it->second.lane < 0 ? nullptr : lanes_[static_cast<size_t>(it->second.lane)].get();
  }
  void unplace(IndexShard& shard, const std::string& key);
  /// `use(lane, entry)` on the pod / group named by `ref`, under its lane's lock; nullopt (or
  /// false for a void `use`) when there is none.
  template <class Use>
  auto withPod(ObjectRef ref, Use use) {
    return within(podLane(ref), &Lane::pods, ref, use);
  }
  template <class Use>
  auto withGroup(ObjectRef ref, Use use) {
    return within(groupLane(ref), &Lane::groups, ref, use);
  }
  template <class Map, class Use>
  auto within(Lane* lane, Map Lane::*map, ObjectRef ref, Use use)
      -> std::optional<std::invoke_result_t<Use, Lane&, typename Map::value_type&>> {
    if (!lane) return std::nullopt;
    std::lock_guard lock(lane->mutex);
    auto it = (lane->*map).find(ref);
    if (it == (lane->*map).end()) return std::nullopt;
    return use(*lane, *it);
  }
  /// A copy of the object `name` of `kind` in namespace `ns`, or nullopt.
  template <class T>
  std::optional<T> findObject(const std::string& ns, const std::string& name, std::map<std::string, T> Objects::*kind) {
    std::shared_lock lock(objectsMutex_);
    auto o = objects_.find(ns);
    if (o == objects_.end()) return std::nullopt;
    auto it = (o->second.*kind).find(name);
    return it == (o->second.*kind).end() ? std::nullopt : std::optional<T>(it->second);
  }

  // Lane lock held:
  ClusterEvent& emit(Lane& lane, ClusterEvent::Type type);  // a new event at the end of the lane
  void emitPodUpdate(Lane& lane, SimPod& pod, PodPhase oldPhase, uint64_t oldVersion);
  void removePod(Lane& lane, const std::string& key);
  void releaseResources(SimPod& pod);
  void membersChanged(SimPod& pod) {
    if (pod.group) pod.group->second.changed = ++changeSeq_;
  }
  void scheduleDue(Lane& lane, SimPod& pod, int64_t delayMs, Due::Kind kind);  // one clock timer per lane and time
  void dropDues(Lane& lane, SimPod& pod);  // the pod will not act again: its dues no longer keep time going
  void applyDue(Lane& lane, const Due& due);
  void startPod(Lane& lane, SimPod& pod);
  void exitPod(Lane& lane, SimPod& pod);
  // Every lane's lock held (schedulePass, script actions):
  void applyScriptAction(const Due& due);
  void schedulePass();  // gang_scheduler.cpp
  void setGroupPhase(SimGroup& group, const std::string& phase);
  void reportUnschedulable(SimGroup& group, bool changed);
  void armScheduleTimeout(const SimGroup& group);
  void eraseGroup(Lane& lane, const std::string& key);
  std::vector<std::unique_lock<std::mutex>> lockAllLanes();
  static SimResources requestOf(const Pod& pod);
  static SimResources amountsOf(const ResourceList& list);

  Clock& clock_;
  std::shared_ptr<Lifeline> lifeline_ = std::make_shared<Lifeline>();
  std::vector<std::unique_ptr<Lane>> lanes_;
  LaneRouter route_;
  bool laned_ = false;  // useLanes() was called: lanes are taken, not delivered
  mutable std::vector<IndexShard> podIndex_, groupIndex_;

  std::mutex mutex_;  // everything below
  ClusterListener* listener_ = nullptr;
  PodBehaviourFn behaviour_;
  std::function<void(const PodGroup&)> unschedulableObserver_;
  std::vector<PodGroup> unschedulable_;  // reports of the last pass
  std::vector<Due> scriptActions_;       // evictions and lost nodes waiting for deliver()
  std::map<std::pair<TimeMs, std::string>, SimGroup*> groupOrder_;  // the scheduler's order: by creation
  std::map<std::string, std::string> pvcs_;  // key -> owner uid

  std::mutex nodesMutex_;
  std::vector<Node> nodes_;

  std::shared_mutex objectsMutex_;
  std::map<std::string, Objects> objects_;  // by namespace
  uint64_t configMapWrites_ = 0;            // under objectsMutex_

  std::atomic<uint64_t> resourceVersion_{0};
  std::atomic<uint64_t> podSeq_{0};
  std::atomic<bool> dirty_{false};
  std::atomic<int> failCreates_{0};
  std::atomic<uint64_t> changeSeq_{0};
  std::atomic<uint64_t> delivered_{0};
};

}  // namespace jobhost
