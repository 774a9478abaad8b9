// The progress view of `jobhost run`: a snapshot of the job (phase from the controller, per-task
// pod counts and restarts from the local backend), drawn as a redrawn block on a TTY or as one
// plain line per change; pod outcomes observed from pod events, and the final summary.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <ostream>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "host/cluster/backend.h"
#include "jobhost/job.h"

namespace jobhost::cli {

struct TaskProgress {
  std::string name;
  int32_t pending = 0, running = 0, succeeded = 0, failed = 0, terminating = 0, restarts = 0;
  friend bool operator==(const TaskProgress&, const TaskProgress&) = default;
};

struct JobProgress {
  std::string job;  // "<ns>/<name>"
  JobPhase phase = JobPhase::None;
  int32_t retryCount = 0;
  std::vector<TaskProgress> tasks;  // in spec order
  int64_t elapsedMs = 0;
  std::string waiting;  // why the gang is not placed (its PodGroup's condition), else empty
  /// The job's conditions in time order: each phase it entered, at its elapsed time (ms since the
  /// job was created), so a plain view can print phases that came and went between two snapshots.
  std::vector<std::pair<JobPhase, int64_t>> entered;
};

/// Counts the pods of `job` by task (volcano.sh/task-spec) and phase; pods being deleted count as
/// terminating; restarts add up every container's restartCount. `waiting` comes from the job's
/// PodGroup as Volcano's PodGroupPending event reads it: its latest True condition, unless that is
/// Scheduled ("unschedulable: NotEnoughResources: <message>").
JobProgress takeProgress(const Job& job, const std::vector<PodState>& pods, const std::optional<PodGroup>& podGroup,
                         int64_t elapsedMs);

class ProgressView {
 public:
  ProgressView(std::ostream& out, bool tty) : out_(out), tty_(tty) {}
  /// TTY: redraws the block (with elapsed time). Otherwise: one line when anything but the
  /// elapsed time changed since the last line, after a line for each phase the job entered and left
  /// since then.
  void show(const JobProgress& progress);

 private:
  std::ostream& out_;
  bool tty_;
  int drawnLines_ = 0;
  std::string lastLine_;
  JobPhase lastPhase_ = JobPhase::None;
  std::set<std::pair<JobPhase, int64_t>> accounted_;  // phase entries already printed or current
};

/// What became of a task's pods: every incarnation (pod UID) counts once, by the last phase its
/// add/update events showed: Succeeded, Failed, or killed (deleted before finishing); restarts add
/// up each incarnation's last container and init-container restartCounts.
struct TaskOutcome {
  std::string name;
  int32_t succeeded = 0, failed = 0, killed = 0, restarts = 0;
  friend bool operator==(const TaskOutcome&, const TaskOutcome&) = default;
};

/// A listener between the backend and `next` (the controller's): records every pod event of the
/// job, then forwards the batch unchanged. Thread-safe.
class PodOutcomes final : public ClusterListener {
 public:
  PodOutcomes(ClusterListener& next, std::string ns, std::string job)
      : next_(next), ns_(std::move(ns)), job_(std::move(job)) {}
  void onClusterEvents(std::span<ClusterEvent> events) override;
  /// Per task of `job`, in spec order.
  std::vector<TaskOutcome> byTask(const Job& job) const;
  /// The last observed state of each incarnation that Failed, in pod name then creation order.
  std::vector<PodState> failedPods() const;

 private:
  struct Seen {
    PodState last;  // from the last add/update event (or the deletion, for restart counts)
    PodPhase phase = PodPhase::Pending;
    int32_t restarts = 0;
    bool deleted = false;
  };
  ClusterListener& next_;
  std::string ns_, job_;
  mutable std::mutex mutex_;
  std::map<std::string, Seen> pods_;  // by pod UID
};

/// The closing summary: final phase, elapsed time, per-task pod outcomes, failed containers with
/// their exit codes and log files, and the log directory.
void printSummary(std::ostream& out, const JobProgress& progress, const std::vector<TaskOutcome>& outcomes,
                  const std::vector<PodState>& failedPods, const std::string& logDir, bool interrupted);

}  // namespace jobhost::cli
