// The cluster backend interface the controller drives (sim: in-process simulation; local: real
// processes): pods, PodGroups, PVCs and plugin objects, plus the event stream reported back.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "jobhost/extension_points.h"
#include "jobhost/objects.h"
#include "jobhost/pod.h"

namespace jobhost {

/// Outcome of a backend call. NotFound and AlreadyExists are told apart because Volcano ignores
/// them in specific places.
enum class ClusterErrc { Ok, NotFound, AlreadyExists, Failed };

struct ClusterStatus {
  ClusterErrc code = ClusterErrc::Ok;
  std::string message;

  bool ok() const { return code == ClusterErrc::Ok; }
  static ClusterStatus success() { return {}; }
  static ClusterStatus fail(ClusterErrc code, std::string message) { return {code, std::move(message)}; }
};

/// A pod as the backend reports it. `object` is the pod as created (metadata and spec, shared
/// and immutable; a metadata patch replaces it); `status` and `deletionTimestamp` are current.
/// `object->status` is not maintained: read `status`.
struct PodState {
  std::shared_ptr<const Pod> object;
  PodStatus status;
  std::optional<TimeMs> deletionTimestamp;
  uint64_t resourceVersion = 0;

  const std::string& name() const { return object->metadata.name; }
  const std::string& namespace_() const { return object->metadata.namespace_; }
  const std::string& uid() const { return object->metadata.uid; }
};

/// One change reported by the backend, in the order the changes happened.
struct ClusterEvent {
  enum class Type {
    PodAdded,
    PodUpdated,
    PodDeleted,
    PodGroupUpdated,  // PodGroup status or spec changed (phase carried below)
    JobChanged,       // echo of echoJobChange (the job informer's update event)
  };
  Type type = Type::PodAdded;
  PodState pod;                  // Pod*: the pod after the change (Deleted: its last state)
  PodPhase oldPodPhase = PodPhase::Pending;  // PodUpdated: the phase before
  uint64_t oldResourceVersion = 0;           // PodUpdated: the version before
  std::shared_ptr<const PodGroup> podGroup;  // PodGroupUpdated: the PodGroup after
  std::string oldPodGroupPhase;              // PodGroupUpdated: the phase before
  std::string namespace_;                    // JobChanged
  std::string jobName;                       // JobChanged
};

/// Receives backend events. Called from a backend thread, never from inside a call into the
/// backend. Events of one batch are applied together before any request they cause is processed.
/// The listener may move from the events (a listener that passes them on reads them first).
class ClusterListener {
 public:
  virtual void onClusterEvents(std::span<ClusterEvent> events) = 0;

 protected:
  ~ClusterListener() = default;
};

/// A backend that keeps its events in lanes, one per controller worker, instead of delivering
/// them to the listener: each worker takes its own lane when it runs out of work (the sim).
class LaneSource {
 public:
  /// Applies the lane's changes that are due (pod transitions) and appends its events, in order, to
  /// `out`. Called by the lane's worker only. False when the lane had nothing.
  virtual bool takeLane(size_t lane, std::vector<ClusterEvent>& out) = 0;

 protected:
  ~LaneSource() = default;
};

/// The backend. All calls are thread-safe and return without waiting for the resulting events;
/// those arrive later through the listener, in order.
class ClusterBackend {
 public:
  virtual ~ClusterBackend() = default;

  virtual void setListener(ClusterListener* listener) = 0;

  /// Creates a pod (name unique per namespace; AlreadyExists otherwise), taking it over. Returns
  /// its state (UID assigned, phase Pending).
  virtual ClusterStatus createPod(Pod pod, PodState* created) = 0;
  /// Deletes a pod (NotFound when absent).
  virtual ClusterStatus deletePod(const std::string& ns, const std::string& name) = 0;
  /// Adds or replaces one annotation of a pod (the controller's out-of-sync JSON patch).
  virtual ClusterStatus annotatePod(const std::string& ns, const std::string& name, const std::string& key,
                                    const std::string& value) = 0;

  virtual ClusterStatus createPodGroup(const PodGroup& pg) = 0;
  /// Replaces the spec of an existing PodGroup.
  virtual ClusterStatus updatePodGroupSpec(const PodGroup& pg) = 0;
  virtual ClusterStatus deletePodGroup(const std::string& ns, const std::string& name) = 0;
  virtual std::optional<PodGroup> getPodGroup(const std::string& ns, const std::string& name) = 0;
  /// The phase of a PodGroup, or nullopt when it does not exist (cheap lookup per sync).
  virtual std::optional<std::string> podGroupPhase(const std::string& ns, const std::string& name) = 0;

  virtual ClusterStatus createPvc(const std::string& ns, const std::string& name, const std::string& ownerUid) = 0;
  virtual bool pvcExists(const std::string& ns, const std::string& name) = 0;

  /// Plugin objects (what ResourceClient exposes to JobHooks).
  virtual ClusterStatus applyObjects(const std::string& ns, const Components& objects) = 0;
  virtual ClusterStatus removeObject(const std::string& ns, ObjectKind kind, const std::string& name) = 0;
  virtual std::optional<ConfigMap> getConfigMap(const std::string& ns, const std::string& name) = 0;
  virtual std::optional<Secret> getSecret(const std::string& ns, const std::string& name) = 0;
  /// Whether ConfigMap `name` exists with exactly `data` (compared in place, nothing copied out).
  virtual bool hasConfigMapData(const std::string& ns, const std::string& name,
                                const std::map<std::string, std::string>& data) = 0;
  /// ResourceClient::configMapVersion: changes on every write of the ConfigMap, never reused; 0
  /// when it does not exist.
  virtual uint64_t configMapVersion(const std::string& ns, const std::string& name) = 0;
  virtual bool objectExists(const std::string& ns, ObjectKind kind, const std::string& name) = 0;

  /// Garbage collection of a deleted job: deletes every pod, PodGroup, PVC and object whose
  /// owner references name `ownerUid` (events follow as for any deletion).
  virtual void deleteOwnedBy(const std::string& ns, const std::string& ownerUid) = 0;

  /// The controller wrote the job in a way Volcano's job informer reports (status phase or spec
  /// change). The backend echoes a JobChanged event after the events of earlier calls.
  virtual void echoJobChange(const std::string& ns, const std::string& name) = 0;
};

}  // namespace jobhost
