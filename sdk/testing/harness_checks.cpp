// The name checks: pod names derived from the job's tasks and replicas as Volcano names pods, the
// bus actions of jobhost::actions, the job's tasks.
#include "harness_checks.h"

#include <algorithm>
#include <array>
#include <stdexcept>

#include "host/workload/names.h"

namespace jobhost::testing {
namespace {

constexpr std::array kActions{actions::AbortJob,    actions::RestartJob,   actions::RestartTask, actions::RestartPod,
                              actions::RestartPartition, actions::TerminateJob, actions::CompleteJob,
                              actions::ResumeJob,   actions::SyncJob,      actions::EnqueueJob};

std::vector<std::string> podsOf(const Job& job) {
  std::vector<std::string> out;
  for (const auto& t : job.spec.tasks)
    for (int32_t i = 0; i < t.replicas; ++i) out.push_back(podName(job.metadata.name, t.name, i));
  return out;
}

bool contains(const std::vector<std::string>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

std::string listed(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out.empty() ? "none" : out;
}

void checkPodOfJob(const Job& job, std::string_view pod, const std::string& call) {
  const std::vector<std::string> pods = podsOf(job);
  if (!contains(pods, pod))
    throw std::invalid_argument("jobhost::testing: " + call + ": job \"" + job.metadata.name +
                                "\" has no pod \"" + std::string(pod) + "\" (its pods: " + listed(pods) + ")");
}

void checkCommand(const Job& job, std::string_view action, std::string_view task, std::string_view pod) {
  const std::string call = "command(\"" + std::string(action) + "\")";
  if (std::find(kActions.begin(), kActions.end(), action) == kActions.end())
    throw std::invalid_argument("jobhost::testing: " + call + ": no such action (actions: " +
                                listed({kActions.begin(), kActions.end()}) + ")");
  std::vector<std::string> tasks;
  for (const auto& t : job.spec.tasks) tasks.push_back(t.name);
  if (!task.empty() && !contains(tasks, task))
    throw std::invalid_argument("jobhost::testing: " + call + ": job \"" + job.metadata.name + "\" has no task \"" +
                                std::string(task) + "\" (its tasks: " + listed(tasks) + ")");
  if (!pod.empty()) checkPodOfJob(job, pod, call);
}

}  // namespace jobhost::testing
