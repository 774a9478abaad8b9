// Decoders for ObjectMeta and the pod template: every modelled field of pod.h; keys Kubernetes
// defines but jobhost does not model are kept in the nearest struct's `unknown`.
#include "host/spec/pod_decode.h"

#include <string_view>

#include "host/spec/schema_finding.h"

namespace jobhost {

using Value = rapidjson::Value;

namespace {

/// The OpenAPI type of each Kubernetes field jobhost keeps as unmodelled JSON, so a value of the
/// wrong type gets the API server's "must be of type" finding as a modelled field does.
struct FieldType {
  std::string_view name, type;
};
constexpr FieldType kPodSpecTypes[] = {
    {"activeDeadlineSeconds", "integer"}, {"affinity", "object"}, {"automountServiceAccountToken", "boolean"},
    {"dnsConfig", "object"}, {"enableServiceLinks", "boolean"}, {"ephemeralContainers", "array"},
    {"hostAliases", "array"}, {"hostIPC", "boolean"}, {"hostPID", "boolean"}, {"hostUsers", "boolean"},
    {"hostnameOverride", "string"}, {"imagePullSecrets", "array"}, {"nodeName", "string"}, {"nodeSelector", "object"},
    {"os", "object"}, {"overhead", "object"}, {"preemptionPolicy", "string"}, {"priority", "integer"},
    {"readinessGates", "array"}, {"resourceClaims", "array"}, {"runtimeClassName", "string"},
    {"schedulingGates", "array"}, {"securityContext", "object"}, {"serviceAccount", "string"},
    {"serviceAccountName", "string"}, {"setHostnameAsFQDN", "boolean"}, {"shareProcessNamespace", "boolean"},
    {"terminationGracePeriodSeconds", "integer"}, {"tolerations", "array"}, {"topologySpreadConstraints", "array"},
    {"workloadRef", "object"}};
constexpr FieldType kContainerTypes[] = {
    {"envFrom", "array"}, {"imagePullPolicy", "string"}, {"lifecycle", "object"}, {"livenessProbe", "object"},
    {"readinessProbe", "object"}, {"resizePolicy", "array"}, {"restartPolicy", "string"},
    {"restartPolicyRules", "array"}, {"securityContext", "object"}, {"startupProbe", "object"}, {"stdin", "boolean"},
    {"stdinOnce", "boolean"}, {"terminationMessagePath", "string"}, {"terminationMessagePolicy", "string"},
    {"tty", "boolean"}, {"volumeDevices", "array"}};

template <size_t N>
void checkUnmodelledTypes(const Decoder& d, const Value& v, const std::string& path, const FieldType (&types)[N]) {
  if (!v.IsObject()) return;
  for (const FieldType& f : types) {
    auto it = v.FindMember(rapidjson::StringRef(f.name.data(), f.name.size()));
    if (it == v.MemberEnd() || it->value.IsNull() || openApiTypeName(it->value) == f.type) continue;
    d.wrongType(it->value, childPath(path, std::string(f.name)), f.type, "must be of type " + std::string(f.type));
  }
}

}  // namespace

void read(const Decoder& d, const Value& v, const std::string& path, OwnerReference& out) {
  d.fields(v, path,
           {{"apiVersion", d.into(out.apiVersion)},
            {"kind", d.into(out.kind)},
            {"name", d.into(out.name)},
            {"uid", d.into(out.uid)},
            {"controller", d.into(out.controller)},
            {"blockOwnerDeletion", d.into(out.blockOwnerDeletion)}});
}

void read(const Decoder& d, const Value& v, const std::string& path, ObjectMeta& out) {
  d.fields(v, path,
           {{"name", d.into(out.name)},
            {"namespace", d.into(out.namespace_)},
            {"uid", d.into(out.uid)},
            {"resourceVersion", d.into(out.resourceVersion)},
            {"labels", d.into(out.labels)},
            {"annotations", d.into(out.annotations)},
            {"ownerReferences", d.into(out.ownerReferences)},
            {"creationTimestamp", d.time(out.creationTimestamp)},
            {"deletionTimestamp", d.time(out.deletionTimestamp)}},
           out.unknown);
}

void read(const Decoder& d, const Value& v, const std::string& path, KeySelector& out) {
  d.fields(v, path, {{"name", d.into(out.name)}, {"key", d.into(out.key)}, {"optional", d.into(out.optional)}});
}

void read(const Decoder& d, const Value& v, const std::string& path, FieldSelector& out) {
  d.fields(v, path, {{"apiVersion", d.into(out.apiVersion)}, {"fieldPath", d.into(out.fieldPath)}});
}

void read(const Decoder& d, const Value& v, const std::string& path, ResourceFieldSelector& out) {
  d.fields(v, path,
           {{"containerName", d.into(out.containerName)},
            {"resource", d.into(out.resource)},
            {"divisor", d.into(out.divisor)}});
}

void read(const Decoder& d, const Value& v, const std::string& path, EnvVarSource& out) {
  d.fields(v, path,
           {{"configMapKeyRef", d.into(out.configMapKeyRef)},
            {"secretKeyRef", d.into(out.secretKeyRef)},
            {"fieldRef", d.into(out.fieldRef)},
            {"resourceFieldRef", d.into(out.resourceFieldRef)}});
}

void read(const Decoder& d, const Value& v, const std::string& path, EnvVar& out) {
  d.fields(v, path, {{"name", d.into(out.name)}, {"value", d.into(out.value)}, {"valueFrom", d.into(out.valueFrom)}});
}

void read(const Decoder& d, const Value& v, const std::string& path, ContainerPort& out) {
  d.fields(v, path,
           {{"name", d.into(out.name)},
            {"containerPort", d.into(out.containerPort)},
            {"protocol", d.into(out.protocol)},
            {"hostPort", d.into(out.hostPort)},
            {"hostIP", d.into(out.hostIP)}});
}

void read(const Decoder& d, const Value& v, const std::string& path, ResourceRequirements& out) {
  d.fields(v, path, {{"requests", d.into(out.requests)}, {"limits", d.into(out.limits)}}, out.unknown);
}

void read(const Decoder& d, const Value& v, const std::string& path, VolumeMount& out) {
  d.fields(v, path,
           {{"name", d.into(out.name)},
            {"mountPath", d.into(out.mountPath)},
            {"subPath", d.into(out.subPath)},
            {"readOnly", d.into(out.readOnly)}},
           out.unknown);
}

void read(const Decoder& d, const Value& v, const std::string& path, Container& out) {
  d.fields(v, path,
           {{"name", d.into(out.name)},
            {"image", d.into(out.image)},
            {"command", d.into(out.command)},
            {"args", d.into(out.args)},
            {"workingDir", d.into(out.workingDir)},
            {"env", d.into(out.env)},
            {"ports", d.into(out.ports)},
            {"resources", d.into(out.resources)},
            {"volumeMounts", d.into(out.volumeMounts)}},
           out.unknown);
  checkUnmodelledTypes(d, v, path, kContainerTypes);
}

void read(const Decoder& d, const Value& v, const std::string& path, KeyToPath& out) {
  d.fields(v, path, {{"key", d.into(out.key)}, {"path", d.into(out.path)}, {"mode", d.into(out.mode)}});
}

void read(const Decoder& d, const Value& v, const std::string& path, ConfigMapVolumeSource& out) {
  d.fields(v, path,
           {{"name", d.into(out.name)},
            {"items", d.into(out.items)},
            {"defaultMode", d.into(out.defaultMode)},
            {"optional", d.into(out.optional)}});
}

void read(const Decoder& d, const Value& v, const std::string& path, SecretVolumeSource& out) {
  d.fields(v, path,
           {{"secretName", d.into(out.secretName)},
            {"items", d.into(out.items)},
            {"defaultMode", d.into(out.defaultMode)},
            {"optional", d.into(out.optional)}});
}

void read(const Decoder& d, const Value& v, const std::string& path, EmptyDirVolumeSource& out) {
  d.fields(v, path, {{"medium", d.into(out.medium)}, {"sizeLimit", d.into(out.sizeLimit)}});
}

void read(const Decoder& d, const Value& v, const std::string& path, PersistentVolumeClaimVolumeSource& out) {
  d.fields(v, path, {{"claimName", d.into(out.claimName)}, {"readOnly", d.into(out.readOnly)}});
}

void read(const Decoder& d, const Value& v, const std::string& path, Volume& out) {
  d.fields(v, path,
           {{"name", d.into(out.name)},
            {"configMap", d.into(out.configMap)},
            {"secret", d.into(out.secret)},
            {"emptyDir", d.into(out.emptyDir)},
            {"persistentVolumeClaim", d.into(out.persistentVolumeClaim)}},
           out.unknown);
}

// Pod-level resources stay unmodelled JSON in PodSpec::unknown (validation reads them there), but
// are decoded like a container's so a bad quantity is reported where it is.
Decoder::Reader podLevelResources(const Decoder& d, UnknownFields& unknown) {
  return [&d, &unknown](const Value& v, const std::string& path) {
    ResourceRequirements checked;
    read(d, v, path, checked);
    if (v.IsObject()) unknown.emplace_back("resources", compactJson(v));
  };
}

void read(const Decoder& d, const Value& v, const std::string& path, PodSpec& out) {
  d.fields(v, path,
           {{"initContainers", d.into(out.initContainers)},
            {"containers", d.into(out.containers)},
            {"volumes", d.into(out.volumes)},
            {"hostname", d.into(out.hostname)},
            {"subdomain", d.into(out.subdomain)},
            {"restartPolicy", d.into(out.restartPolicy)},
            {"priorityClassName", d.into(out.priorityClassName)},
            {"schedulerName", d.into(out.schedulerName)},
            {"dnsPolicy", d.into(out.dnsPolicy)},
            {"hostNetwork", d.into(out.hostNetwork)},
            {"resources", podLevelResources(d, out.unknown)}},
           out.unknown);
  checkUnmodelledTypes(d, v, path, kPodSpecTypes);
}

void read(const Decoder& d, const Value& v, const std::string& path, PodTemplateSpec& out) {
  d.fields(v, path, {{"metadata", d.into(out.metadata)}, {"spec", d.into(out.spec)}});
}

}  // namespace jobhost
