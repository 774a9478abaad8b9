// UPDATE admission: Volcano's validateJobUpdate (spec §8.3) — eight errors, then the comparison of
// the specs after neutralising the fields a job may change — then the schema/VAP rules and plugins.
#include <exception>
#include <string>
#include <vector>

#include "host/admission/admission.h"
#include "host/admission/findings.h"
#include "host/admission/host_limits.h"
#include "host/admission/job_rules.h"
#include "host/admission/schema_rules.h"

namespace jobhost {
namespace {

constexpr std::string_view kMayNotChange =
    "job updates may not change fields other than `minAvailable`, `tasks[*].replicas under spec` and "
    "`PriorityClassName`";

// The fields Volcano lets an update change, set equal on both sides.
void neutralise(JobSpec& updated, JobSpec& old) {
  updated.minAvailable = old.minAvailable;
  updated.priorityClassName = old.priorityClassName;
  for (size_t i = 0; i < updated.tasks.size() && i < old.tasks.size(); ++i) {
    updated.tasks[i].replicas = old.tasks[i].replicas;
    updated.tasks[i].minAvailable = old.tasks[i].minAvailable;
  }
  for (auto* spec : {&updated, &old})  // the controller fills in claim names it generates
    for (auto& v : spec->volumes)
      if (v.volumeClaim) v.volumeClaimName.clear();
}

void taskChanges(const TaskSpec& a, const TaskSpec& b, const std::string& at, std::vector<std::string>& out) {
  if (a.name != b.name) out.push_back(at + ".name");
  if (!(a.template_ == b.template_)) out.push_back(at + ".template");
  if (a.policies != b.policies) out.push_back(at + ".policies");
  if (a.topologyPolicy != b.topologyPolicy) out.push_back(at + ".topologyPolicy");
  if (a.maxRetry != b.maxRetry) out.push_back(at + ".maxRetry");
  if (a.dependsOn != b.dependsOn) out.push_back(at + ".dependsOn");
  if (a.partitionPolicy != b.partitionPolicy) out.push_back(at + ".partitionPolicy");
  if (a.unknown != b.unknown) out.push_back(at);
}

// Fields of the (neutralised) specs that differ; both have the same number of tasks.
std::vector<std::string> changedFields(const JobSpec& a, const JobSpec& b) {
  std::vector<std::string> out;
  if (a.schedulerName != b.schedulerName) out.push_back("spec.schedulerName");
  if (a.volumes != b.volumes) out.push_back("spec.volumes");
  for (size_t i = 0; i < a.tasks.size(); ++i)
    if (!(a.tasks[i] == b.tasks[i])) taskChanges(a.tasks[i], b.tasks[i], "spec.tasks[" + std::to_string(i) + "]", out);
  if (a.policies != b.policies) out.push_back("spec.policies");
  if (a.plugins != b.plugins) out.push_back("spec.plugins");
  if (a.runningEstimate != b.runningEstimate) out.push_back("spec.runningEstimate");
  if (a.queue != b.queue) out.push_back("spec.queue");
  if (a.maxRetry != b.maxRetry) out.push_back("spec.maxRetry");
  if (a.ttlSecondsAfterFinished != b.ttlSecondsAfterFinished) out.push_back("spec.ttlSecondsAfterFinished");
  if (a.minSuccess != b.minSuccess) out.push_back("spec.minSuccess");
  if (a.networkTopology != b.networkTopology) out.push_back("spec.networkTopology");
  if (a.unknown != b.unknown) out.push_back("spec");
  if (out.empty() && !(a == b)) out.push_back("spec");  // a field added to JobSpec but not listed above
  return out;
}

void checkWebhook(Findings& f, const Job& oldJob, const Job& newJob) {
  const JobSpec& spec = newJob.spec;
  int32_t totalReplicas = 0;  // an int32 in Volcano: wraps on overflow
  for (size_t i = 0; i < spec.tasks.size(); ++i) {
    const TaskSpec& t = spec.tasks[i];
    const std::string at = "spec.tasks[" + std::to_string(i) + "].";
    if (t.replicas < 0) f.firstWins(at + "replicas", "'replicas' must be >= 0 in task: " + t.name);
    if (t.minAvailable && *t.minAvailable < 0)
      f.firstWins(at + "minAvailable", "'minAvailable' must be >= 0 in task: " + t.name);
    else if (t.minAvailable && *t.minAvailable > t.replicas)
      f.firstWins(at + "minAvailable", "'minAvailable' must be <= 'replicas' in task: " + t.name);
    if (auto e = partitionPolicyError(newJob, i)) f.firstWins(e->field, e->message);
    totalReplicas = addInt32(totalReplicas, t.replicas);
  }
  if (spec.minAvailable > totalReplicas)
    f.firstWins("spec.minAvailable", "job 'minAvailable' must not be greater than total replicas");
  if (spec.minAvailable < 0) f.firstWins("spec.minAvailable", "job 'minAvailable' must be >= 0");
  if (tiersConflict(spec.networkTopology)) f.firstWins("spec.networkTopology", std::string(kTiersConflict));
  if (oldJob.spec.tasks.size() != spec.tasks.size()) {
    f.firstWins("spec.tasks", "job updates may not add or remove tasks");
    return;
  }
  JobSpec updated = spec, old = oldJob.spec;
  neutralise(updated, old);
  for (auto& field : changedFields(updated, old)) f.firstWins(std::move(field), std::string(kMayNotChange));
}

}  // namespace

AdmissionResult validateJobUpdate(const Job& oldJob, const Job& newJob, const AdmissionConfig& config) {
  try {
    Findings f;
    checkWebhook(f, oldJob, newJob);
    checkSchemaRules(newJob, f);
    checkHostLimits(newJob, config, f);
    f.runPlugins(config, newJob, &oldJob);
    return f.finish();
  } catch (const std::exception& e) {
    AdmissionResult failed;
    failed.allowed = false;
    failed.errors = {{"", std::string("admission failed: ") + e.what()}};
    return failed;
  }
}

}  // namespace jobhost
