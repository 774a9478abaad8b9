// CRD-schema and ValidatingAdmissionPolicy rules of the Job, worded as the VAP (installer
// volcano-development-vap.yaml) and the API server's OpenAPI validation word them.
#include "host/admission/schema_rules.h"

#include <algorithm>
#include <string>
#include <vector>

#include "host/admission/field_errors.h"
#include "host/admission/go_text.h"
#include "host/admission/pod_field_names.h"
#include "host/admission/policy_validation.h"
#include "host/spec/schema_finding.h"
#include "host/workload/json_quantity.h"
#include "host/workload/k8s_names.h"

namespace jobhost {
namespace {

constexpr std::string_view kSubdomainPattern = "^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$";
constexpr std::string_view kLabelPattern = "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$";
constexpr std::string_view kQuantityPattern =
    "^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$";

// The CRD's OpenAPI schema (part of the API server's 422 Invalid answer) and the VAP.
void crd(Findings& f, const std::string& field, std::string message) {
  f.apiServer(ApiServerStage::ObjectValidation, field, std::move(message));
}
void vap(Findings& f, const std::string& field, std::string message) {
  f.apiServer(ApiServerStage::AdmissionPolicy, field, std::move(message));
}

std::string tooLong(size_t max) { return "Too long: may not be more than " + std::to_string(max) + " bytes"; }

void atLeastOne(Findings& f, const std::string& field, int32_t v) {
  if (v < 1)
    crd(f, field, "Invalid value: " + std::to_string(v) + ": " + field + " in body should be greater than or equal to 1");
}

std::string patternError(const std::string& field, const std::string& v, std::string_view pattern) {
  return "Invalid value: " + k8s::value(v) + ": " + field + " in body should match '" + std::string(pattern) + "'";
}

// spec.overhead (kept as JSON): the CRD types it as a map of int-or-string quantities.
void overheadValues(Findings& f, const PodSpec& spec, const std::string& prefix) {
  const auto json = unknownFieldJson(spec.unknown, "overhead");
  if (!json || json->IsNull()) return;
  const std::string field = prefix + ".overhead";
  if (!json->IsObject()) return crd(f, field, schemaTypeError(field, *json, "object"));
  for (const auto& m : json->GetObject()) {
    const std::string at = field + "." + std::string(m.name.GetString(), m.name.GetStringLength());
    if (m.value.IsString()) {
      if (!jsonQuantity(m.value))
        crd(f, at, patternError(at, {m.value.GetString(), m.value.GetStringLength()}, kQuantityPattern));
    } else if (!m.value.IsInt64() && !m.value.IsUint64()) {
      crd(f, at, schemaTypeError(at, m.value, "integer,string"));
    }
  }
}

// The VAP's "invalid policy action" on job-level policies, for the ones the webhook never checks:
// exit-code policies (the webhook checks the action of event policies, with its own message).
// The VAP's list omits RestartPartition; jobhost keeps it valid, as the webhook does (spec §11).
void exitCodePolicyActions(Findings& f, const std::vector<LifecyclePolicy>& policies) {
  const auto& valid = validPolicyActions();
  for (size_t i = 0; i < policies.size(); ++i) {
    const LifecyclePolicy& p = policies[i];
    if (!p.exitCode || !p.event.empty() || !p.events.empty() || p.action.empty()) continue;
    if (std::find(valid.begin(), valid.end(), p.action) == valid.end())
      vap(f, "spec.policies[" + std::to_string(i) + "].action", "invalid policy action");
  }
}

// Keys the decoder kept because the Job model does not name them. The Job CRD declares every field
// of Job, JobSpec and TaskSpec, so these are refused by strict field validation.
void unknownFields(Findings& f, const UnknownFields& unknown, const std::string& prefix) {
  for (const auto& [key, json] : unknown) {
    (void)json;
    unknownField(f, prefix.empty() ? key : prefix + "." + key);
  }
}

// The pod template's keys jobhost does not model but keeps: those Kubernetes does not declare
// either are refused like the Job's own (the CRD carries the whole PodTemplateSpec schema).
void undeclaredPodFields(Findings& f, const UnknownFields& unknown, PodStruct kind, const std::string& prefix) {
  for (const auto& [key, json] : unknown) {
    (void)json;
    if (!declaredByKubernetes(kind, key)) unknownField(f, prefix + "." + key);
  }
}

void undeclaredContainerFields(Findings& f, const std::vector<Container>& containers, const std::string& prefix) {
  for (size_t i = 0; i < containers.size(); ++i) {
    const Container& c = containers[i];
    const std::string at = prefix + "[" + std::to_string(i) + "]";
    undeclaredPodFields(f, c.unknown, PodStruct::Container, at);
    undeclaredPodFields(f, c.resources.unknown, PodStruct::ResourceRequirements, at + ".resources");
    for (size_t m = 0; m < c.volumeMounts.size(); ++m)
      undeclaredPodFields(f, c.volumeMounts[m].unknown, PodStruct::VolumeMount,
                          at + ".volumeMounts[" + std::to_string(m) + "]");
  }
}

void undeclaredTemplateFields(Findings& f, const PodSpec& spec, const std::string& prefix) {
  undeclaredPodFields(f, spec.unknown, PodStruct::PodSpec, prefix);
  undeclaredContainerFields(f, spec.initContainers, prefix + ".initContainers");
  undeclaredContainerFields(f, spec.containers, prefix + ".containers");
  for (size_t v = 0; v < spec.volumes.size(); ++v)
    undeclaredPodFields(f, spec.volumes[v].unknown, PodStruct::Volume, prefix + ".volumes[" + std::to_string(v) + "]");
}

void subdomainField(Findings& f, const std::string& field, const std::string& v) {
  if (v.empty()) return;
  if (v.size() > 253) crd(f, field, tooLong(253));
  if (!k8s::matchesDNS1123Subdomain(v)) crd(f, field, patternError(field, v, kSubdomainPattern));
}

}  // namespace

void unknownField(Findings& f, const std::string& field) {
  f.apiServer(ApiServerStage::FieldValidation, field, "unknown field " + gotext::quote(field));
}

void checkSchemaRules(const Job& job, Findings& f) {
  const JobSpec& spec = job.spec;
  unknownFields(f, job.unknown, "");
  unknownFields(f, spec.unknown, "spec");
  if (spec.minAvailable < 0) vap(f, "spec.minAvailable", "job 'minAvailable' must be >= 0");
  if (spec.maxRetry < 0) vap(f, "spec.maxRetry", "'maxRetry' cannot be less than zero");
  if (spec.ttlSecondsAfterFinished && *spec.ttlSecondsAfterFinished < 0)
    vap(f, "spec.ttlSecondsAfterFinished", "'ttlSecondsAfterFinished' cannot be less than zero");
  for (size_t i = 0; i < spec.tasks.size(); ++i) {
    const TaskSpec& t = spec.tasks[i];
    const std::string at = "spec.tasks[" + std::to_string(i) + "].";
    unknownFields(f, t.unknown, "spec.tasks[" + std::to_string(i) + "]");
    undeclaredTemplateFields(f, t.template_.spec, at + "template.spec");
    overheadValues(f, t.template_.spec, at + "template.spec");
    if (t.replicas < 0) vap(f, at + "replicas", "'replicas' < 0 in task");
    if (t.minAvailable && *t.minAvailable < 0) vap(f, at + "minAvailable", "'minAvailable' < 0 in task");
    if (!k8s::isDNS1123Label(t.name).empty())  // CEL format.dns1123Label(): length included
      vap(f, at + "name", "a lowercase RFC 1123 label must consist of lower case alphanumeric characters");
    if (t.name.size() > 63) crd(f, at + "name", tooLong(63));
    if (!k8s::matchesDNS1123Label(t.name)) crd(f, at + "name", patternError(at + "name", t.name, kLabelPattern));
    if (t.partitionPolicy) {
      atLeastOne(f, at + "partitionPolicy.totalPartitions", t.partitionPolicy->totalPartitions);
      atLeastOne(f, at + "partitionPolicy.partitionSize", t.partitionPolicy->partitionSize);
    }
  }
  subdomainField(f, "spec.queue", spec.queue);
  subdomainField(f, "spec.priorityClassName", spec.priorityClassName);
  if (spec.minSuccess) atLeastOne(f, "spec.minSuccess", *spec.minSuccess);
  exitCodePolicyActions(f, spec.policies);
}

}  // namespace jobhost
