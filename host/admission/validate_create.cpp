// CREATE admission: Volcano's validateJobCreate in order (spec §8.2), then the schema/VAP rules and
// the Validation plugins.
#include <exception>
#include <set>
#include <string>
#include <vector>

#include "host/admission/admission.h"
#include "host/admission/findings.h"
#include "host/admission/go_text.h"
#include "host/admission/host_limits.h"
#include "host/admission/job_rules.h"
#include "host/admission/pod_template_validation.h"
#include "host/admission/policy_validation.h"
#include "host/admission/schema_rules.h"
#include "host/workload/k8s_names.h"
#include "host/workload/names.h"

namespace jobhost {
namespace {

std::string taskPath(size_t i) { return "spec.tasks[" + std::to_string(i) + "]"; }

void addPolicies(Findings& f, const std::vector<LifecyclePolicy>& policies, std::string_view volcanoPath,
                 const std::string& fieldPrefix) {
  PolicyCheck check = validatePolicies(policies, volcanoPath, fieldPrefix);
  if (check.error.empty()) return;
  // One piece for the whole multierror; its findings carry the precise fields.
  f.webhook({check.error + validPoliciesSuffix(), check.findings.front().field, check.findings.front().message});
  for (size_t k = 1; k < check.findings.size(); ++k) f.add(check.findings[k].field, check.findings[k].message);
}

// The PodTemplate's Kubernetes paths, re-rooted at the task: metadata.name is the task name.
std::string taskField(size_t i, const std::string& k8sField) {
  if (k8sField == "metadata.name") return taskPath(i) + ".name";
  if (k8sField.rfind("metadata.", 0) == 0) return k8sField;
  return taskPath(i) + "." + k8sField;
}

// validateTaskTemplate: Kubernetes' PodTemplate errors, else the topology CPU rule.
void checkTemplate(Findings& f, const Job& job, size_t i) {
  const TaskSpec& task = job.spec.tasks[i];
  const k8s::FieldErrs errs = k8s::validatePodTemplate(task.template_, task.name, job.metadata.namespace_);
  if (errs.empty()) {
    if (auto e = topologyCpuError(task, i)) f.webhook(*e);
    return;
  }
  std::string piece = "spec.task[" + std::to_string(i) + "].";
  for (const auto& e : errs) piece += e.text() + ". ";
  f.webhook({std::move(piece), taskField(i, errs.front().field), errs.front().body});
  for (size_t k = 1; k < errs.size(); ++k) f.add(taskField(i, errs[k].field), errs[k].body);
}

struct TaskLoop {
  int32_t totalReplicas = 0;  // an int32 in Volcano: wraps on overflow
  bool hasDependencies = false;  // a task the loop reached has dependsOn
};

// Step 4: the per-task loop, which stops at the first duplicated task name. Like Volcano it notes
// dependsOn first, so the duplicated task counts and the tasks after it do not.
TaskLoop checkTasks(Findings& f, const Job& job) {
  std::set<std::string, std::less<>> names;
  TaskLoop loop;
  for (size_t i = 0; i < job.spec.tasks.size(); ++i) {
    const TaskSpec& task = job.spec.tasks[i];
    if (task.dependsOn) loop.hasDependencies = true;
    if (task.minAvailable && *task.minAvailable > task.replicas)
      f.webhook(webhookError(" 'minAvailable' is greater than 'replicas' in task: " + task.name +
                                 ", job: " + job.metadata.name + ";",
                             taskPath(i) + ".minAvailable"));
    loop.totalReplicas = addInt32(loop.totalReplicas, task.replicas);
    if (!names.insert(task.name).second) {
      f.webhook(webhookError(" duplicated task name " + task.name + ";", taskPath(i) + ".name"));
      break;
    }
    addPolicies(f, task.policies, "spec.tasks.policies", taskPath(i) + ".policies");
    const std::string pod = podName(job.metadata.name, task.name, static_cast<int32_t>(i));
    if (auto errs = k8s::isQualifiedName(pod); !errs.empty())
      f.webhook(webhookError("create pod with name " + pod + " validate failed " + gotext::slice(errs) + ";",
                             taskPath(i) + ".name"));
    checkTemplate(f, job, i);
    if (auto e = partitionPolicyError(job, i)) f.webhook(*e);
  }
  return loop;
}

// The args the mpi plugin gets for this job (config defaults, then the job's).
std::vector<std::string> mpiArgs(const Job& job, const AdmissionConfig& config) {
  if (config.pluginArgs) return config.pluginArgs("mpi", job);
  return job.spec.plugins.at("mpi");
}

void checkWebhook(Findings& f, const Job& job, const AdmissionConfig& config) {
  const JobSpec& spec = job.spec;
  if (spec.tasks.empty()) {
    f.webhook(webhookError("No task specified in job spec", "spec.tasks"));
    return;
  }
  if (spec.plugins.count("mpi")) {
    if (auto e = mpiMasterError(job, mpiArgs(job, config))) {
      f.webhook(*e);
      return;
    }
  }
  if (tiersConflict(spec.networkTopology)) f.webhook(webhookError(std::string(kTiersConflict), "spec.networkTopology"));
  const TaskLoop loop = checkTasks(f, job);
  if (auto errs = k8s::isQualifiedName(job.metadata.name); !errs.empty())
    f.webhook(webhookError("create job with name " + job.metadata.name + " validate failed " + gotext::slice(errs),
                           "metadata.name"));
  if (loop.totalReplicas < spec.minAvailable)
    f.webhook(webhookError(" job 'minAvailable' should not be greater than total replicas in tasks;", "spec.minAvailable"));
  addPolicies(f, spec.policies, "spec.policies", "spec.policies");
  for (const auto& [name, args] : spec.plugins) {
    (void)args;
    if (!config.knownPlugin || !config.knownPlugin(name))
      f.webhook(webhookError(" unable to find job plugin: " + name + ";", "spec.plugins." + name));
  }
  if (auto e = volumesError(spec.volumes)) f.webhook(*e);
  for (const auto& e : queueErrors(job, config.queues)) f.webhook(e);
  if (loop.hasDependencies)
    if (auto e = dependencyError(job)) f.webhook(*e);
}

}  // namespace

AdmissionResult validateJobCreate(const Job& job, const AdmissionConfig& config) {
  try {
    Findings f;
    checkWebhook(f, job, config);
    checkSchemaRules(job, f);
    checkHostLimits(job, config, f);
    f.runPlugins(config, job, nullptr);
    return f.finish();
  } catch (const std::exception& e) {  // e.g. bad_alloc, or a throwing knownPlugin predicate
    AdmissionResult failed;
    failed.allowed = false;
    failed.errors = {{"", std::string("admission failed: ") + e.what()}};
    return failed;
  }
}

AdmissionResult refuseBySchema(const std::vector<SchemaFinding>& findings) {
  Findings f;
  for (const auto& e : findings) {
    if (e.undeclared)
      unknownField(f, e.field);
    else
      f.apiServer(ApiServerStage::ObjectValidation, e.field, e.message);
  }
  return f.finish();
}

}  // namespace jobhost
