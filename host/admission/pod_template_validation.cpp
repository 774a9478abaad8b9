// PodTemplate-level rules of Kubernetes' validation: object meta, labels, annotations, volumes and
// pod-spec fields; container rules live in container_validation.cpp.
#include "host/admission/pod_template_validation.h"

#include <cctype>

#include "host/admission/container_validation.h"
#include "host/admission/pod_field_names.h"
#include "host/admission/resource_validation.h"
#include "host/workload/k8s_names.h"

namespace jobhost::k8s {
namespace {

constexpr std::string_view kFileModeError = "must be a number between 0 and 0777 (octal), both inclusive";
constexpr std::string_view kOneVolumeType = "may not specify more than 1 volume type";

void validateMode(const std::optional<int32_t>& mode, const std::string& path, FieldErrs& out) {
  if (mode && (*mode > 0777 || *mode < 0)) out.push_back(invalid(path, value(*mode), kFileModeError));
}

// validateKeyToPath with ValidateLocalNonReservedPath.
void validateItems(const std::vector<KeyToPath>& items, const std::string& path, FieldErrs& out) {
  for (size_t i = 0; i < items.size(); ++i) {
    const auto& kp = items[i];
    const std::string idx = index(path, i);
    if (kp.key.empty()) out.push_back(required(child(idx, "key")));
    if (kp.path.empty()) out.push_back(required(child(idx, "path")));
    validateLocalDescendingPath(kp.path, child(idx, "path"), out);
    if (kp.path.rfind("..", 0) == 0 && kp.path.rfind("../", 0) != 0)
      out.push_back(invalid(child(idx, "path"), value(kp.path), "must not start with '..'"));
    validateMode(kp.mode, child(idx, "mode"), out);
  }
}

// validateVolumeSource: exactly one source, each source's own rules. Sources jobhost does not model
// (hostPath, nfs, ...) are the volume's unknown fields and count in Kubernetes' order after emptyDir;
// keys Kubernetes does not declare are no source (schema_rules refuses them).
void validateVolumeSource(const Volume& v, const std::string& path, FieldErrs& el) {
  int sources = 0;
  auto another = [&](std::string_view field) {
    if (sources > 0) {
      el.push_back(forbidden(child(path, field), kOneVolumeType));
      return false;
    }
    ++sources;
    return true;
  };
  if (v.emptyDir) {
    ++sources;
    if (v.emptyDir->sizeLimit && v.emptyDir->sizeLimit->milliValue() < 0)
      el.push_back(forbidden(child(child(path, "emptyDir"), "sizeLimit"), "SizeLimit field must be a valid resource quantity"));
  }
  for (const auto& [field, json] : v.unknown) {
    (void)json;
    if (declaredByKubernetes(PodStruct::Volume, field)) another(field);  // else strict decoding refuses it
  }
  if (v.secret && another("secret")) {
    const std::string p = child(path, "secret");
    if (v.secret->secretName.empty()) el.push_back(required(child(p, "secretName")));
    validateMode(v.secret->defaultMode, child(p, "defaultMode"), el);
    validateItems(v.secret->items, child(p, "items"), el);
  }
  if (v.persistentVolumeClaim && another("persistentVolumeClaim")) {
    if (v.persistentVolumeClaim->claimName.empty())
      el.push_back(required(child(child(path, "persistentVolumeClaim"), "claimName")));
  }
  if (v.configMap && another("configMap")) {
    const std::string p = child(path, "configMap");
    if (v.configMap->name.empty()) el.push_back(required(child(p, "name")));
    validateMode(v.configMap->defaultMode, child(p, "defaultMode"), el);
    validateItems(v.configMap->items, child(p, "items"), el);
  }
  if (sources == 0) el.push_back(required(path, "must specify a volume type"));
}

// ValidateVolumes: a volume's name is usable by mounts only when the volume has no error.
void validateVolumes(const std::vector<Volume>& volumes, const std::string& path, PodContext& pod, FieldErrs& out) {
  std::set<std::string, std::less<>> seen;
  for (size_t i = 0; i < volumes.size(); ++i) {
    const Volume& v = volumes[i];
    const std::string idx = index(path, i);
    FieldErrs el;
    validateVolumeSource(v, idx, el);
    if (v.name.empty())
      el.push_back(required(child(idx, "name")));
    else
      invalidEach(el, child(idx, "name"), value(v.name), isDNS1123Label(v.name));
    if (seen.count(v.name)) el.push_back(duplicate(child(idx, "name"), value(v.name)));
    if (el.empty()) {
      seen.insert(v.name);
      pod.volumes.insert(v.name);
    } else {
      for (auto& e : el) out.push_back(std::move(e));
    }
  }
}

void validateHostNetworkPorts(const PodSpec& spec, FieldErrs& out) {
  if (!spec.hostNetwork) return;
  for (size_t i = 0; i < spec.containers.size(); ++i) {
    const auto& ports = spec.containers[i].ports;
    for (size_t j = 0; j < ports.size(); ++j)
      if (ports[j].hostPort != 0 && ports[j].hostPort != ports[j].containerPort)
        out.push_back(invalid(child(index(child(index("template.spec.containers", i), "ports"), j), "hostPort"),
                              value(ports[j].hostPort), "must match `containerPort` when `hostNetwork` is true"));
  }
}

void validatePodSpec(const PodSpec& spec, FieldErrs& out) {
  PodContext pod;
  pod.hostNetwork = spec.hostNetwork;
  validateVolumes(spec.volumes, "template.spec.volumes", pod, out);
  validateContainers(spec.containers, pod, "template.spec.containers", out);
  validateInitContainers(spec.initContainers, spec.containers, pod, "template.spec.initContainers", out);
  validatePodResources(spec, "template.spec.resources", out);  // PodLevelResources: on by default
  validateHostNetworkPorts(spec, out);
  const std::string& rp = spec.restartPolicy;
  if (!rp.empty() && rp != "Always" && rp != "OnFailure" && rp != "Never")
    out.push_back(notSupported("template.spec.restartPolicy", value(rp), {"Always", "OnFailure", "Never"}));
  const std::string& dns = spec.dnsPolicy;
  if (!dns.empty() && dns != "ClusterFirstWithHostNet" && dns != "ClusterFirst" && dns != "Default" && dns != "None")
    out.push_back(notSupported("template.spec.dnsPolicy", value(dns), {"ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"}));
  if (dns == "None" && !hasUnknownField(spec.unknown, "dnsConfig"))
    out.push_back(required("template.spec.dnsConfig", "must provide `dnsConfig` when `dnsPolicy` is None"));
  if (!spec.hostname.empty())
    invalidEach(out, "template.spec.hostname", value(spec.hostname), isDNS1123Label(spec.hostname));
  if (!spec.subdomain.empty())
    invalidEach(out, "template.spec.subdomain", value(spec.subdomain), isDNS1123Label(spec.subdomain));
  if (!spec.priorityClassName.empty())
    invalidEach(out, "template.spec.priorityClassName", value(spec.priorityClassName),
                isDNS1123Subdomain(spec.priorityClassName));
  validateOverhead(spec, "template.spec.overhead", out);
}

}  // namespace

void validateObjectName(FieldErrs& out, std::string_view name) {
  if (name.empty())
    out.push_back(required("metadata.name", "name or generateName is required"));
  else
    invalidEach(out, "metadata.name", value(name), isDNS1123Subdomain(name));
}

FieldErrs validatePodTemplate(const PodTemplateSpec& tpl, std::string_view name, std::string_view ns) {
  FieldErrs out;
  validateObjectName(out, name);
  if (!ns.empty()) invalidEach(out, "metadata.namespace", value(ns), isDNS1123Label(ns));

  for (const auto& [k, v] : tpl.metadata.labels) {
    invalidEach(out, "template.labels", value(k), isQualifiedName(k));
    invalidEach(out, "template.labels", value(v), isLabelValue(v));
  }
  for (const auto& [k, v] : tpl.metadata.annotations) {
    (void)v;
    std::string lower(k);
    for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    invalidEach(out, "template.annotations", value(k), isQualifiedName(lower));
  }
  validatePodSpec(tpl.spec, out);
  return out;
}

}  // namespace jobhost::k8s
