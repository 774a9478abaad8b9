// Progress snapshots, the TTY/plain progress view and the summary of `jobhost run`
// (see run_progress.h). ANSI: cursor up (ESC[nA) and clear to end of screen (ESC[J).
#include "host/cli/run_progress.h"

#include <algorithm>
#include <cstdio>

#include "host/cluster/podgroup_conditions.h"
#include "host/workload/depends_on.h"

namespace jobhost::cli {
namespace {

std::string seconds(int64_t ms) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1fs", static_cast<double>(ms) / 1000.0);
  return buf;
}

std::string pad(std::string s, size_t width) {
  if (s.size() < width) s.resize(width, ' ');
  return s;
}

std::string taskLine(const TaskProgress& t) {
  std::string line = t.name + " " + std::to_string(t.pending) + "/" + std::to_string(t.running) + "/" +
                     std::to_string(t.succeeded) + "/" + std::to_string(t.failed);
  if (t.terminating) line += " (" + std::to_string(t.terminating) + " terminating)";
  if (t.restarts) line += " restarts " + std::to_string(t.restarts);
  return line;
}

std::string phaseText(const JobProgress& p) {
  std::string s = p.phase == JobPhase::None ? "Submitted" : toString(p.phase);
  if (p.retryCount) s += " (retry " + std::to_string(p.retryCount) + ")";
  return s;
}

std::string waitingReason(const std::optional<PodGroup>& podGroup) {
  const PodGroupCondition* latest = podGroup ? pendingCondition(*podGroup) : nullptr;
  if (!latest) return "";
  std::string type = latest->type;
  std::transform(type.begin(), type.end(), type.begin(), [](unsigned char ch) { return std::tolower(ch); });
  return type + ": " + latest->reason + ": " + latest->message;
}

// Volcano's dependsOn readiness of one pod: Succeeded, or Running with every container ready.
bool readyForDependents(const PodState& pod) {
  if (pod.deletionTimestamp) return false;
  if (pod.status.phase == PodPhase::Succeeded) return true;
  return pod.status.phase == PodPhase::Running &&
         std::all_of(pod.status.containerStatuses.begin(), pod.status.containerStatuses.end(),
                     [](const ContainerStatus& c) { return c.ready; });
}

// Why the first task without pods that dependsOn others is not created yet (spec §6.4), else "".
// `readyByTask` counts each task's pods that are readyForDependents.
std::string dependsOnWait(const Job& job, const std::vector<TaskProgress>& counts,
                          const std::vector<int32_t>& readyByTask) {
  const JobSpec& spec = job.spec;
  auto readyPods = [&](size_t i) { return readyByTask[i]; };
  for (size_t i = 0; i < spec.tasks.size(); ++i) {
    const TaskSpec& task = spec.tasks[i];
    const TaskProgress& c = counts[i];
    if (!task.dependsOn || c.pending + c.running + c.succeeded + c.failed + c.terminating > 0 ||
        dependsOnMet(spec, *task.dependsOn, readyPods))
      continue;
    std::string unmet;
    for (const auto& dep : task.dependsOn->name) {
      if (dependencyReady(spec, dep, readyPods)) continue;
      auto it = std::find_if(spec.tasks.begin(), spec.tasks.end(), [&](const TaskSpec& t) { return t.name == dep; });
      const bool known = it != spec.tasks.end();
      unmet += (unmet.empty() ? "" : ", ") + dep + " " +
               (known ? std::to_string(readyByTask[static_cast<size_t>(it - spec.tasks.begin())]) : "0") + "/" +
               (known ? std::to_string(it->minAvailable.value_or(0)) : "?") + " ready";
    }
    return "dependsOn: task " + task.name + " waits for " + (anyDependencySuffices(*task.dependsOn) ? "any of " : "") +
           unmet;
  }
  return "";
}

}  // namespace

JobProgress takeProgress(const Job& job, const std::vector<PodState>& pods, const std::optional<PodGroup>& podGroup,
                         int64_t elapsedMs) {
  JobProgress p;
  p.waiting = waitingReason(podGroup);
  p.job = job.metadata.namespace_ + "/" + job.metadata.name;
  p.phase = job.status.state.phase;
  p.retryCount = job.status.retryCount;
  p.elapsedMs = elapsedMs;
  std::map<std::string, size_t> index;
  for (const auto& t : job.spec.tasks) {
    index[t.name] = p.tasks.size();
    p.tasks.push_back(TaskProgress{t.name});
  }
  std::vector<int32_t> readyByTask(p.tasks.size(), 0);
  for (const auto& pod : pods) {
    const auto& ann = pod.object->metadata.annotations;
    auto task = ann.find(std::string(keys::TaskSpec));
    if (task == ann.end() || !index.count(task->second)) continue;
    const size_t taskIndex = index[task->second];
    TaskProgress& t = p.tasks[taskIndex];
    if (readyForDependents(pod)) ++readyByTask[taskIndex];
    for (const auto& c : pod.status.containerStatuses) t.restarts += c.restartCount;
    for (const auto& c : pod.status.initContainerStatuses) t.restarts += c.restartCount;
    if (pod.deletionTimestamp) {
      ++t.terminating;
      continue;
    }
    switch (pod.status.phase) {
      case PodPhase::Pending: ++t.pending; break;
      case PodPhase::Running: ++t.running; break;
      case PodPhase::Succeeded: ++t.succeeded; break;
      case PodPhase::Failed: ++t.failed; break;
      case PodPhase::Unknown: break;
    }
    // Else a pod held back by the backend says why (CreateContainerConfigError, FailedMount).
    if (p.waiting.empty() && pod.status.phase == PodPhase::Pending && !pod.status.reason.empty())
      p.waiting = "pod " + pod.name() + ": " + pod.status.reason + ": " + pod.status.message;
  }
  const bool creatingPods = p.phase == JobPhase::None || p.phase == JobPhase::Pending || p.phase == JobPhase::Running;
  if (p.waiting.empty() && creatingPods) p.waiting = dependsOnWait(job, p.tasks, readyByTask);
  if (const auto created = job.metadata.creationTimestamp)
    for (const auto& c : job.status.conditions)
      if (c.lastTransitionTime) p.entered.emplace_back(c.status, std::max<int64_t>(*c.lastTransitionTime - *created, 0));
  std::stable_sort(p.entered.begin(), p.entered.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
  return p;
}

void ProgressView::show(const JobProgress& progress) {
  if (!tty_) {
    for (const auto& [phase, atMs] : progress.entered) {
      if (!accounted_.emplace(phase, atMs).second) continue;
      if (phase == progress.phase || phase == lastPhase_) continue;
      lastPhase_ = phase;
      out_ << "[" << pad(seconds(atMs), 7) << "] " << toString(phase) << "\n";
    }
    lastPhase_ = progress.phase;
    std::string line = pad(phaseText(progress), 12);
    for (const auto& t : progress.tasks) line += "  " + taskLine(t);
    if (!progress.waiting.empty()) line += "  waiting: " + progress.waiting;
    if (line == lastLine_) return;
    lastLine_ = line;
    out_ << "[" << pad(seconds(progress.elapsedMs), 7) << "] " << line << "\n" << std::flush;
    return;
  }
  std::string block;
  if (drawnLines_ > 0) block += "\x1b[" + std::to_string(drawnLines_) + "A\x1b[J";
  block += "job " + progress.job + "  " + phaseText(progress) + "  elapsed " + seconds(progress.elapsedMs) + "\n";
  block += "  " + pad("TASK", 20) + pad("PENDING", 9) + pad("RUNNING", 9) + pad("SUCCEEDED", 11) + pad("FAILED", 8) +
           "RESTARTS\n";
  for (const auto& t : progress.tasks)
    block += "  " + pad(t.name, 20) + pad(std::to_string(t.pending), 9) +
             pad(std::to_string(t.running) + (t.terminating ? "+" + std::to_string(t.terminating) + "t" : ""), 9) +
             pad(std::to_string(t.succeeded), 11) + pad(std::to_string(t.failed), 8) + std::to_string(t.restarts) +
             "\n";
  drawnLines_ = 2 + static_cast<int>(progress.tasks.size());
  if (!progress.waiting.empty()) {
    block += "  waiting: " + progress.waiting + "\n";
    ++drawnLines_;
  }
  out_ << block << std::flush;
}

namespace {

int32_t restartsOf(const PodStatus& status) {
  int32_t n = 0;
  for (const auto& c : status.containerStatuses) n += c.restartCount;
  for (const auto& c : status.initContainerStatuses) n += c.restartCount;
  return n;
}

std::string annotation(const PodState& pod, std::string_view key) {
  const auto& ann = pod.object->metadata.annotations;
  auto it = ann.find(std::string(key));
  return it == ann.end() ? "" : it->second;
}

}  // namespace

void PodOutcomes::onClusterEvents(std::span<ClusterEvent> events) {
  {
    std::lock_guard lock(mutex_);
    for (const auto& ev : events) {
      const bool podEvent = ev.type == ClusterEvent::Type::PodAdded || ev.type == ClusterEvent::Type::PodUpdated ||
                            ev.type == ClusterEvent::Type::PodDeleted;
      if (!podEvent || !ev.pod.object || ev.pod.namespace_() != ns_ || annotation(ev.pod, keys::JobName) != job_)
        continue;
      Seen& seen = pods_[ev.pod.uid()];
      seen.restarts = std::max(seen.restarts, restartsOf(ev.pod.status));
      if (ev.type == ClusterEvent::Type::PodDeleted) {
        seen.deleted = true;
        if (!seen.last.object) seen.last = ev.pod;
        continue;
      }
      seen.last = ev.pod;
      seen.phase = ev.pod.status.phase;
    }
  }
  next_.onClusterEvents(events);
}

std::vector<TaskOutcome> PodOutcomes::byTask(const Job& job) const {
  std::vector<TaskOutcome> out;
  for (const auto& t : job.spec.tasks) out.push_back(TaskOutcome{t.name});
  std::lock_guard lock(mutex_);
  for (const auto& [uid, seen] : pods_) {
    const std::string task = annotation(seen.last, keys::TaskSpec);
    auto t = std::find_if(out.begin(), out.end(), [&](const TaskOutcome& o) { return o.name == task; });
    if (t == out.end()) continue;
    t->restarts += seen.restarts;
    if (seen.phase == PodPhase::Succeeded) ++t->succeeded;
    else if (seen.phase == PodPhase::Failed) ++t->failed;
    else if (seen.deleted) ++t->killed;
  }
  return out;
}

std::vector<PodState> PodOutcomes::failedPods() const {
  std::vector<PodState> out;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [uid, seen] : pods_)
      if (seen.phase == PodPhase::Failed) out.push_back(seen.last);
  }
  std::sort(out.begin(), out.end(), [](const PodState& a, const PodState& b) {
    return std::pair(a.name(), a.object->metadata.creationTimestamp) <
           std::pair(b.name(), b.object->metadata.creationTimestamp);
  });
  return out;
}

void printSummary(std::ostream& out, const JobProgress& progress, const std::vector<TaskOutcome>& outcomes,
                  const std::vector<PodState>& failedPods, const std::string& logDir, bool interrupted) {
  out << "\njob " << progress.job << " " << (interrupted ? "interrupted, ended " : "ended ") << phaseText(progress)
      << " after " << seconds(progress.elapsedMs) << "\n";
  for (const auto& t : outcomes) {
    out << "  task " << t.name << ": pods succeeded " << t.succeeded << ", failed " << t.failed;
    if (t.killed) out << ", killed " << t.killed;
    out << ", restarts " << t.restarts << "\n";
  }
  for (const auto& pod : failedPods) {
    auto failedContainer = [&](const ContainerStatus& c, const char* kind) {
      if (!c.terminated || c.terminated->exitCode == 0) return;
      out << "  pod " << pod.name();
      if (const std::string retry = annotation(pod, keys::JobRetryCount); !retry.empty() && retry != "0")
        out << " (job retry " << retry << ")";  // tells a restarted job's incarnations apart
      out << " " << kind << " " << c.name << " exited " << c.terminated->exitCode;
      if (c.terminated->reason == "StartError") out << " (cannot start: " << c.terminated->message << ")";
      out << ": " << logDir << "/" << pod.name() << "/logs/" << c.name << ".log\n";
    };
    for (const auto& c : pod.status.initContainerStatuses) failedContainer(c, "init container");
    for (const auto& c : pod.status.containerStatuses) failedContainer(c, "container");
  }
  out << "logs: " << logDir << "/<pod>/logs/<container>.log\n";
}

}  // namespace jobhost::cli
