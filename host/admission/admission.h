// Job admission as Volcano does it: the validating webhook's CREATE and UPDATE rules with Volcano's
// exact messages (spec §8.2, §8.3), the CRD-schema/ValidatingAdmissionPolicy rules, and every
// Validation plugin. A job is wholly accepted or rejected, with every error listed.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "host/config/config.h"
#include "host/spec/schema_finding.h"
#include "jobhost/extension_points.h"
#include "jobhost/job.h"

namespace jobhost {

/// Where on a cluster the API server refuses a job before Volcano's validating webhook runs, so that
/// the webhook's message never reaches the user. Earlier stages come first.
enum class ApiServerStage {
  None,              // the webhook sees the job
  FieldValidation,   // strict field validation while decoding: a field the Job CRD does not declare
  ObjectValidation,  // 422 Invalid: metadata.name/generateName and the CRD's OpenAPI schema
  AdmissionPolicy,   // the ValidatingAdmissionPolicy job-validation-policy, run before webhooks
};

struct AdmissionResult {
  /// False when `errors` is non-empty.
  bool allowed = true;
  /// Exactly what Volcano's validating webhook answers (strings.TrimSpace of its concatenated
  /// message on CREATE, the first error on UPDATE). Empty when only schema/VAP or plugin rules
  /// failed; use `errors` for the complete list.
  std::string message;
  /// Every finding, each at the field it is about ("spec.tasks[1].minAvailable", "metadata.name",
  /// "spec.tasks[0].template.spec.containers[0].image", ...): first the webhook's (in its order),
  /// then the CRD-schema/VAP rules', then the Validation plugins'. `message` is the rule's text
  /// without Volcano's leading space and trailing ';'.
  std::vector<FieldError> errors;
  /// Warnings of the Validation plugins, in plugin order.
  std::vector<std::string> warnings;
  /// The earliest stage before the webhook that refuses the job (None: no such error).
  ApiServerStage refusedBefore = ApiServerStage::None;
  /// The causes of the API server's 422 Invalid answer (ObjectValidation errors, in order), also
  /// listed in `errors`.
  std::vector<FieldError> invalidCauses;
};

/// Runs every Validation plugin on (job, oldJob), appending to `out`; oldJob is null on create.
using PluginValidation = std::function<void(const Job& job, const Job* oldJob, ValidationResult& out)>;

struct AdmissionConfig {
  /// The cluster's queues (HostConfig::queues). "default" and "root" exist even when not listed
  /// (both Open; "root" is every parentless queue's parent).
  std::vector<QueueConfig> queues;
  /// Whether a spec.plugins name is a loaded plugin (or alias). Unset: no name is known.
  std::function<bool(const std::string& name)> knownPlugin;
  /// The host's Validation plugins. Unset: none.
  PluginValidation pluginValidation;
  /// The arguments the plugin named `name` in spec.plugins gets for `job`: the config's default
  /// args for it, then the job's own (Registry::argsFor). Used where admission reads a plugin's
  /// flags (the mpi master task). Unset: the job's spec.plugins entry alone.
  std::function<std::vector<std::string>(const std::string& name, const Job& job)> pluginArgs;
  /// The most pods one job may have in all (HostConfig controller.maxPodsPerJob); 0: no limit.
  int64_t maxPodsPerJob = 0;
};

/// CREATE admission of an already mutated job (mutation.h). Webhook rules in Volcano's order and
/// with its stop rules; then the rules Volcano moved to the CRD schema and the VAP (minAvailable,
/// maxRetry, ttlSecondsAfterFinished, replicas and task minAvailable >= 0, task names DNS-1123 labels
/// of at most 63 bytes, queue and priorityClassName DNS subdomains, minSuccess >= 1, partition
/// totals >= 1, the action of job-level exit-code policies, no undeclared field in Job, JobSpec or
/// TaskSpec); then this host's pods-per-job limit; then every Validation plugin (all run; exceptions
/// become errors). Never throws.
AdmissionResult validateJobCreate(const Job& job, const AdmissionConfig& config);

/// CREATE admission of a job whose decoding found SchemaFindings: the API server refuses it for them
/// before the webhook, the VAP and the rest of the schema see a job with those fields unset, so they
/// alone are reported (undeclared keys at strict field validation, wrong types as 422 Invalid causes).
AdmissionResult refuseBySchema(const std::vector<SchemaFinding>& findings);

/// UPDATE admission of `newJob` replacing `oldJob`: Volcano's eight update errors (message = the
/// first), the "may not change fields other than ..." comparison after neutralising minAvailable,
/// priorityClassName, each task's replicas and minAvailable, and the claim names of volumes that
/// carry a volumeClaim (one error per differing field), the schema/VAP rules, the pods-per-job limit,
/// then every Validation plugin. Never throws.
AdmissionResult validateJobUpdate(const Job& oldJob, const Job& newJob, const AdmissionConfig& config);

}  // namespace jobhost
