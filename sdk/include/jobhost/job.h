// The Volcano Job model (batch.volcano.sh/v1alpha1): spec, tasks, policies, status, and the
// constant strings of the API (phases, actions, events, label and annotation keys).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "jobhost/meta.h"
#include "jobhost/objects.h"
#include "jobhost/pod.h"

namespace jobhost {

/// A Go time.Duration, in milliseconds (policy timeouts, runningEstimate).
struct Duration {
  int64_t ms = 0;
  friend bool operator==(const Duration&, const Duration&) = default;
};

struct LifecyclePolicy {
  std::string action;
  std::string event;
  std::vector<std::string> events;
  std::optional<int32_t> exitCode;
  std::optional<Duration> timeout;
  friend bool operator==(const LifecyclePolicy&, const LifecyclePolicy&) = default;
};

struct DependsOn {
  std::vector<std::string> name;
  std::string iteration;  // "any" | "all" (empty means all)
  friend bool operator==(const DependsOn&, const DependsOn&) = default;
};

struct PartitionPolicy {
  int32_t totalPartitions = 0;
  int32_t partitionSize = 0;
  std::optional<NetworkTopologySpec> networkTopology;
  int32_t minPartitions = 0;
  friend bool operator==(const PartitionPolicy&, const PartitionPolicy&) = default;
};

struct TaskSpec {
  std::string name;
  int32_t replicas = 0;
  std::optional<int32_t> minAvailable;
  PodTemplateSpec template_;
  std::vector<LifecyclePolicy> policies;
  std::string topologyPolicy;
  int32_t maxRetry = 0;
  std::optional<DependsOn> dependsOn;
  std::optional<PartitionPolicy> partitionPolicy;
  UnknownFields unknown;
  friend bool operator==(const TaskSpec&, const TaskSpec&) = default;
};

/// A job-level volume (spec.volumes[]): a PVC mounted into every container.
struct JobVolume {
  std::string mountPath;
  std::string volumeClaimName;
  std::optional<std::string> volumeClaim;  // PersistentVolumeClaimSpec as compact JSON text
  friend bool operator==(const JobVolume&, const JobVolume&) = default;
};

struct JobSpec {
  std::string schedulerName;
  int32_t minAvailable = 0;
  std::vector<JobVolume> volumes;
  std::vector<TaskSpec> tasks;
  std::vector<LifecyclePolicy> policies;
  /// spec.plugins: plugin name -> its arguments (Go flag syntax). Sorted by name, like a Go map
  /// serialised by Kubernetes; the order plugins run in comes from the host config, not from here.
  std::map<std::string, std::vector<std::string>> plugins;
  std::optional<Duration> runningEstimate;
  std::string queue;
  int32_t maxRetry = 0;
  std::optional<int32_t> ttlSecondsAfterFinished;
  std::string priorityClassName;
  std::optional<int32_t> minSuccess;
  std::optional<NetworkTopologySpec> networkTopology;
  UnknownFields unknown;
  friend bool operator==(const JobSpec&, const JobSpec&) = default;
};

enum class JobPhase {
  None,  // "" : not initiated yet
  Pending,
  Aborting,
  Aborted,
  Running,
  Restarting,
  Completing,
  Completed,
  Terminating,
  Terminated,
  Failed,
};
const char* toString(JobPhase phase);
std::optional<JobPhase> parseJobPhase(std::string_view text);
/// Completed, Terminated, Failed (and Aborted is not finished: it can be resumed).
bool isFinished(JobPhase phase);

struct JobState {
  JobPhase phase = JobPhase::None;
  std::string reason;
  std::string message;
  std::optional<TimeMs> lastTransitionTime;
  friend bool operator==(const JobState&, const JobState&) = default;
};

struct JobCondition {
  JobPhase status = JobPhase::None;
  std::optional<TimeMs> lastTransitionTime;
  friend bool operator==(const JobCondition&, const JobCondition&) = default;
};

/// Per-task pod counts by pod phase.
struct TaskState {
  std::map<PodPhase, int32_t> phase;
  friend bool operator==(const TaskState&, const TaskState&) = default;
};

struct JobStatus {
  JobState state;
  int32_t minAvailable = 0;
  std::map<std::string, TaskState> taskStatusCount;
  int32_t pending = 0;
  int32_t running = 0;
  int32_t succeeded = 0;
  int32_t failed = 0;
  int32_t terminating = 0;
  int32_t unknown = 0;
  int32_t version = 0;
  int32_t retryCount = 0;
  std::optional<int64_t> runningDurationMs;
  std::map<std::string, std::string> controlledResources;
  std::vector<JobCondition> conditions;
  friend bool operator==(const JobStatus&, const JobStatus&) = default;
};

struct Job {
  std::string apiVersion = "batch.volcano.sh/v1alpha1";
  std::string kind = "Job";
  ObjectMeta metadata;
  JobSpec spec;
  JobStatus status;
  UnknownFields unknown;

  const TaskSpec* findTask(std::string_view name) const {
    for (const auto& t : spec.tasks)
      if (t.name == name) return &t;
    return nullptr;
  }
  friend bool operator==(const Job&, const Job&) = default;
};

/// API string constants (volcano.sh/apis). Values are exactly Volcano's.
namespace actions {
inline constexpr std::string_view AbortJob = "AbortJob";
inline constexpr std::string_view RestartJob = "RestartJob";
inline constexpr std::string_view RestartTask = "RestartTask";
inline constexpr std::string_view RestartPod = "RestartPod";
inline constexpr std::string_view RestartPartition = "RestartPartition";
inline constexpr std::string_view TerminateJob = "TerminateJob";
inline constexpr std::string_view CompleteJob = "CompleteJob";
inline constexpr std::string_view ResumeJob = "ResumeJob";
inline constexpr std::string_view SyncJob = "SyncJob";
inline constexpr std::string_view EnqueueJob = "EnqueueJob";
}  // namespace actions

namespace events {
inline constexpr std::string_view Any = "*";
inline constexpr std::string_view PodFailed = "PodFailed";
inline constexpr std::string_view PodEvicted = "PodEvicted";
inline constexpr std::string_view PodPending = "PodPending";
inline constexpr std::string_view PodRunning = "PodRunning";
inline constexpr std::string_view JobUnknown = "Unknown";
inline constexpr std::string_view TaskCompleted = "TaskCompleted";
inline constexpr std::string_view OutOfSync = "OutOfSync";
inline constexpr std::string_view CommandIssued = "CommandIssued";
inline constexpr std::string_view JobUpdated = "JobUpdated";
inline constexpr std::string_view TaskFailed = "TaskFailed";
}  // namespace events

namespace keys {
inline constexpr std::string_view TaskSpec = "volcano.sh/task-spec";
inline constexpr std::string_view TaskIndex = "volcano.sh/task-index";
inline constexpr std::string_view JobName = "volcano.sh/job-name";
inline constexpr std::string_view PartitionId = "volcano.sh/partition-id";
inline constexpr std::string_view QueueName = "volcano.sh/queue-name";
inline constexpr std::string_view JobNamespace = "volcano.sh/job-namespace";
inline constexpr std::string_view JobVersion = "volcano.sh/job-version";
inline constexpr std::string_view JobType = "volcano.sh/job-type";
inline constexpr std::string_view JobRetryCount = "volcano.sh/job-retry-count";
inline constexpr std::string_view TemplateUid = "volcano.sh/template-uid";
inline constexpr std::string_view JobForwarding = "volcano.sh/job-forwarding";
inline constexpr std::string_view GroupName = "scheduling.k8s.io/group-name";
inline constexpr std::string_view Preemptable = "volcano.sh/preemptable";
inline constexpr std::string_view CooldownTime = "volcano.sh/cooldown-time";
inline constexpr std::string_view RevocableZone = "volcano.sh/revocable-zone";
inline constexpr std::string_view JdbMinAvailable = "volcano.sh/jdb-min-available";
inline constexpr std::string_view JdbMaxUnavailable = "volcano.sh/jdb-max-unavailable";
inline constexpr std::string_view NumaTopologyPolicy = "volcano.sh/numa-topology-policy";
inline constexpr std::string_view OutOfSyncMarker = "volcano.sh/controller-out-of-sync";
inline constexpr std::string_view DefaultTaskSpec = "default";
}  // namespace keys

}  // namespace jobhost
