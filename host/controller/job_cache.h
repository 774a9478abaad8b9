// The job cache (Volcano's JobInfo per "ns/name"): the job, a compact record per pod, and
// counters kept incrementally on every pod event so a sync never recounts all pods.
#pragma once

#include <array>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <boost/unordered/unordered_flat_map.hpp>

#include "host/common/object_key.h"
#include "host/controller/clock.h"
#include "host/controller/entry_lock.h"
#include "host/controller/request.h"
#include "jobhost/job.h"

namespace jobhost {

/// Counters over every pod carrying one task-spec key (TaskCompleted / TaskFailed).
struct TaskKeyCounts {
  int32_t pods = 0;
  int32_t succeeded = 0;
  int32_t liveRestarts = 0;  // restarts summed over Running and Pending pods
};

/// What the controller keeps of one pod (far smaller than the Pod itself).
struct PodRecord {
  std::string uid;
  std::string task;       // volcano.sh/task-spec annotation: the key pods are grouped by
  std::string partition;  // volcano.sh/partition-id label
  bool hasPartition = false;
  PodPhase phase = PodPhase::Pending;
  bool terminating = false;  // deletionTimestamp set
  bool outOfSync = false;    // volcano.sh/controller-out-of-sync annotation
  bool allReady = true;      // every container status is ready (vacuously true without any)
  int32_t restarts = 0;      // container + init container restart counts
  // Set by the entry when cached:
  int32_t expectedIndex = -1;  // i when the name is <job>-<task>-<i> with i < replicas, else -1
  int32_t taskSlot = -1;       // index of the spec task named `task`, or -1
  TaskKeyCounts* keyCounts = nullptr;  // the entry's counters of `task`
};

inline size_t phaseSlot(PodPhase p) { return static_cast<size_t>(p); }
inline constexpr size_t kPodPhaseCount = 5;
using PhaseCounts = std::array<int32_t, kPodPhaseCount>;

/// Counters over the expected pods (<job>-<task>-<0..replicas-1>) of one spec task: exactly what
/// Volcano's syncJob loop counts, plus what it would create or delete.
struct TaskCounts {
  PhaseCounts byPhase{};  // expected, not terminating
  int32_t terminating = 0;
  int32_t ready = 0;              // Succeeded, or Running with all containers ready (dependsOn)
  std::set<int32_t> missing;      // expected indices with no pod
  std::set<std::string> outOfSync;   // expected, not terminating, marked out-of-sync
  std::set<std::string> unexpected;  // under this task but not expected (scale-down, strays)
};

class JobEntry {
 public:
  explicit JobEntry(std::string key) : key_(std::move(key)) {}

  const std::string& key() const { return key_; }

  /// Guards the entry (job, pods, counters, bookkeeping) between its worker, which applies the
  /// job's cluster events and processes its requests, and other threads (API calls, snapshots).
  EntryLock mutex;
  bool erased = false;     // dropped from the cache: whoever locked it after that must look again
  std::optional<Job> job;  // nullopt: pods known but no job (not yet added, or deleted)

  /// Sets or replaces the job (spec change) and recomputes every counter.
  void setJob(Job newJob);
  void clearJob();

  bool addPod(const std::string& name, PodRecord record);     // false: already cached
  bool updatePod(const std::string& name, PodRecord record);  // false: not cached
  /// updatePod for the cached pod `cached` (from findPod(name)) whose uid, task and partition are
  /// unchanged: moves only its phase, flags and restarts (no lookup, no string copies).
  void updatePodProgress(const std::string& name, const PodRecord& cached, const PodRecord& progress);
  bool removePod(const std::string& name);                    // false: not cached
  const PodRecord* findPod(const std::string& name) const;
  const std::unordered_map<std::string, PodRecord>& pods() const { return pods_; }

  /// Succeeded pods of the task (by task-spec key) >= its replicas > 0 (cache.go).
  bool taskCompleted(const std::string& task) const;
  bool taskCompleted(const PodRecord& cached) const;
  /// Restarts of its Running and Pending pods >= maxRetry (0: 3; -1: never) (cache.go).
  bool taskFailed(const std::string& task) const;
  bool taskFailed(const PodRecord& cached) const;

  /// Counters of spec task i (same order as job->spec.tasks).
  const TaskCounts& taskCounts(size_t i) const { return tasks_[i]; }
  const PhaseCounts& allByPhase() const { return allByPhase_; }
  int32_t allTerminating() const { return allTerminating_; }
  /// Names of the pods of one partition of a task (Volcano's Partitions[task][id]).
  const std::set<std::string>* partitionPods(const std::string& task, const std::string& id) const;

  /// Increases every time the spec changes (PodGroup spec tracking).
  uint64_t specGeneration() const { return specGeneration_; }

  // Controller bookkeeping for this job (guarded like `job`).
  int64_t podGroupWrittenGeneration = -1;  // spec generation the PodGroup was last written for
  /// controlledResources as last written with the status: hook edits without a status write go back
  /// to it (Volcano's hooks edit a copy of the job).
  std::map<std::string, std::string> committedControlled;
  /// "<job>-<uid>", the PodGroup's name unless a legacy one named like the job exists.
  const std::string& uidPodGroupName() {
    if (uidPodGroupNameOf_ != job->metadata.uid) {
      uidPodGroupName_ = job->metadata.name + "-" + job->metadata.uid;
      uidPodGroupNameOf_ = job->metadata.uid;
    }
    return uidPodGroupName_;
  }
  /// The job's PodGroup as this controller last saw it — created it, or a PodGroupUpdated event —
  /// read by syncs the way Volcano reads its PodGroup lister. Not `known`: ask the backend.
  struct PodGroupView {
    bool known = false;
    std::string name;
    std::string uid;  // of the one this controller created; "" when found existing
    std::optional<std::string> phase;  // nullopt: there is none
  } podGroup;
  TimerHandle ttlTimer;
  uint64_t pvcNameSeq = 0;

 private:
  int32_t expectedIndexOf(std::string_view podName, const std::string& task, int32_t taskSlot) const;
  /// Sets the record's cache fields (task slot, key counters, expected index).
  void intern(const std::string& name, PodRecord& r);
  /// The counters that depend on the pod's identity (name, task, partition) / on its progress.
  void accountIdentity(const std::string& name, const PodRecord& r, int sign);
  void accountProgress(const std::string& name, const PodRecord& r, int sign);
  bool completed(const TaskKeyCounts& key, int32_t taskSlot) const;
  bool failed(const TaskKeyCounts& key, int32_t taskSlot) const;
  void rebuild();

  std::string key_;
  std::string uidPodGroupName_, uidPodGroupNameOf_;
  std::unordered_map<std::string, PodRecord> pods_;
  std::unordered_map<std::string, int32_t> taskIndex_;
  std::vector<TaskCounts> tasks_;
  std::unordered_map<std::string, TaskKeyCounts> keyCounts_;
  std::map<std::string, std::map<std::string, std::set<std::string>>> partitions_;
  PhaseCounts allByPhase_{};
  int32_t allTerminating_ = 0;
  uint64_t specGeneration_ = 0;
};

/// All entries by job key, in one shard per worker (a job's shard is its worker's, by the same
/// FNV-1 hash), each with its own lock, so workers never contend on the map. Thread-safe.
class JobCache {
 public:
  /// An entry and the hold of its lock.
  struct Locked {
    std::shared_ptr<JobEntry> entry;
    std::unique_lock<EntryLock> lock;
    explicit operator bool() const { return entry != nullptr; }
    JobEntry* operator->() const { return entry.get(); }
    JobEntry& operator*() const { return *entry; }
  };

  explicit JobCache(size_t shards) : shards_(shards > 0 ? shards : 1) {}

  /// The cached entry of job `ref` ("ns/name" as two parts: no key string is built), locked;
  /// empty when there is none.
  Locked lockExisting(ObjectRef ref) const;
  Locked lockExisting(std::string_view key) const { return lockExisting(refOf(key)); }
  /// The entry of `ref`, created when missing, locked.
  Locked lockOrCreate(ObjectRef ref);
  Locked lockOrCreate(std::string_view key) { return lockOrCreate(refOf(key)); }
  /// Drops an entry that has neither a job nor pods (the caller does not hold its lock).
  void eraseIfEmpty(ObjectRef ref);
  void eraseIfEmpty(std::string_view key) { eraseIfEmpty(refOf(key)); }

 private:
  /// A job's key as two parts with their jobKeyHash, computed once per lookup: it picks the shard
  /// and is the shard map's hash.
  struct HashedRef {
    explicit HashedRef(ObjectRef r) : ref(r), hash(jobKeyHash(r.ns, r.name)) {}
    ObjectRef ref;
    uint32_t hash;
  };
  /// Hash and equality of the shard maps, keyed by "ns/name" strings and searched with a HashedRef.
  struct KeyHash {
    using is_transparent = void;
    size_t operator()(const HashedRef& key) const { return key.hash; }
    size_t operator()(std::string_view key) const { return HashedRef(refOf(key)).hash; }
  };
  struct KeyEqual : ObjectKeyEqual {
    using ObjectKeyEqual::operator();
    bool operator()(const HashedRef& a, std::string_view b) const { return (*this)(a.ref, b); }
    bool operator()(std::string_view a, const HashedRef& b) const { return (*this)(b.ref, a); }
  };
  struct Shard {
    mutable std::mutex mutex;
    boost::unordered_flat_map<std::string, std::shared_ptr<JobEntry>, KeyHash, KeyEqual> entries;  // by job key
  };
  /// A job key split at its first '/' (namespaces and job names have none).
  static ObjectRef refOf(std::string_view key);
  Shard& shardOf(const HashedRef& key) const { return shards_[key.hash % shards_.size()]; }
  std::shared_ptr<JobEntry> find(const HashedRef& key) const;

  mutable std::vector<Shard> shards_;
};

}  // namespace jobhost
