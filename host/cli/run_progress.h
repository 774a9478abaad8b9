// The progress view of `jobhost run`: a snapshot of the job (phase from the controller, per-task
// pod counts and restarts from the local backend), drawn as a redrawn block on a TTY or as one
// plain line per change, and the final summary with the log directory.
#pragma once

#include <cstdint>
#include <ostream>
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
};

/// Counts the pods of `job` by task (volcano.sh/task-spec) and phase; pods being deleted count as
/// terminating; restarts add up every container's restartCount.
JobProgress takeProgress(const Job& job, const std::vector<PodState>& pods, int64_t elapsedMs);

class ProgressView {
 public:
  ProgressView(std::ostream& out, bool tty) : out_(out), tty_(tty) {}
  /// TTY: redraws the block (with elapsed time). Otherwise: one line when anything but the
  /// elapsed time changed since the last line.
  void show(const JobProgress& progress);

 private:
  std::ostream& out_;
  bool tty_;
  int drawnLines_ = 0;
  std::string lastLine_;
};

/// The closing summary: final phase, elapsed time, per-task counts, failed containers with their
/// exit codes and log files, and the log directory.
void printSummary(std::ostream& out, const JobProgress& progress, const std::vector<PodState>& finalPods,
                  const std::string& logDir, bool interrupted);

}  // namespace jobhost::cli
