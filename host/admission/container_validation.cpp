// Container rules of Kubernetes' ValidatePodTemplate with Kubernetes' wording. Go map iteration
// (resources) is replaced by name order, so errors come out deterministically.
#include "host/admission/container_validation.h"

#include <array>

#include "host/admission/resource_validation.h"
#include "host/workload/k8s_names.h"
#include "host/workload/resources.h"

namespace jobhost::k8s {
namespace {

int32_t effectiveHostPort(const ContainerPort& p, const PodContext& pod) {
  return pod.hostNetwork && p.hostPort == 0 ? p.containerPort : p.hostPort;
}

void validatePorts(const std::vector<ContainerPort>& ports, const PodContext& pod, const std::string& path, FieldErrs& out) {
  std::set<std::string, std::less<>> names;
  for (size_t i = 0; i < ports.size(); ++i) {
    const auto& p = ports[i];
    const std::string idx = index(path, i);
    if (!p.name.empty()) {
      auto msgs = isValidPortName(p.name);
      if (!msgs.empty())
        invalidEach(out, child(idx, "name"), value(p.name), msgs);
      else if (!names.insert(p.name).second)
        out.push_back(duplicate(child(idx, "name"), value(p.name)));
    }
    if (p.containerPort == 0)
      out.push_back(required(child(idx, "containerPort")));
    else
      invalidEach(out, child(idx, "containerPort"), value(p.containerPort), isValidPortNum(p.containerPort));
    const int32_t hostPort = effectiveHostPort(p, pod);
    if (hostPort != 0) invalidEach(out, child(idx, "hostPort"), value(hostPort), isValidPortNum(hostPort));
    if (!p.protocol.empty() && p.protocol != "TCP" && p.protocol != "UDP" && p.protocol != "SCTP")
      out.push_back(notSupported(child(idx, "protocol"), value(p.protocol), {"SCTP", "TCP", "UDP"}));
  }
}

// AccumulateUniqueHostPorts: "<protocol>/<hostIP>/<hostPort>" must be unique.
void checkHostPortConflicts(const std::vector<const Container*>& containers, const PodContext& pod,
                            std::string_view path, FieldErrs& out) {
  std::set<std::string, std::less<>> seen;
  for (size_t ci = 0; ci < containers.size(); ++ci) {
    const auto& ports = containers[ci]->ports;
    for (size_t pi = 0; pi < ports.size(); ++pi) {
      const int32_t hostPort = effectiveHostPort(ports[pi], pod);
      if (hostPort == 0) continue;
      const std::string protocol = ports[pi].protocol.empty() ? "TCP" : ports[pi].protocol;
      std::string id = protocol + "/" + ports[pi].hostIP + "/" + std::to_string(hostPort);
      if (!seen.insert(id).second)
        out.push_back(duplicate(child(index(child(index(path, ci), "ports"), pi), "hostPort"), value(id)));
    }
  }
}

void validateKeySelector(const KeySelector& s, const std::string& path, FieldErrs& out) {
  invalidEach(out, child(path, "name"), value(s.name), isDNS1123Subdomain(s.name));
  if (s.key.empty())
    out.push_back(required(child(path, "key")));
  else
    invalidEach(out, child(path, "key"), value(s.key), isConfigMapKey(s.key));
}

constexpr std::array<std::string_view, 6> kResourceFieldPaths = {
    "limits.cpu", "limits.ephemeral-storage", "limits.memory",
    "requests.cpu", "requests.ephemeral-storage", "requests.memory"};

void validateResourceFieldRef(const ResourceFieldSelector& s, const std::string& path, FieldErrs& out) {
  if (s.resource.empty()) {
    out.push_back(required(child(path, "resource")));
    return;
  }
  for (auto allowed : kResourceFieldPaths)
    if (s.resource == allowed) return;
  if (s.resource.rfind("limits.hugepages-", 0) == 0 || s.resource.rfind("requests.hugepages-", 0) == 0) return;
  out.push_back(notSupported(child(path, "resource"), value(s.resource),
                             {kResourceFieldPaths[0], kResourceFieldPaths[1], kResourceFieldPaths[2],
                              kResourceFieldPaths[3], kResourceFieldPaths[4], kResourceFieldPaths[5]}));
}

void validateEnv(const std::vector<EnvVar>& env, const std::string& path, FieldErrs& out) {
  for (size_t i = 0; i < env.size(); ++i) {
    const auto& e = env[i];
    const std::string idx = index(path, i);
    if (e.name.empty()) out.push_back(required(child(idx, "name")));
    invalidEach(out, child(idx, "name"), value(e.name), isEnvVarName(e.name));
    if (!e.valueFrom) continue;
    const EnvVarSource& from = *e.valueFrom;
    const std::string fromPath = child(idx, "valueFrom");
    int sources = 0;
    if (from.fieldRef) {
      ++sources;
      if (from.fieldRef->fieldPath.empty()) out.push_back(required(child(child(fromPath, "fieldRef"), "fieldPath")));
    }
    if (from.resourceFieldRef) {
      ++sources;
      validateResourceFieldRef(*from.resourceFieldRef, child(fromPath, "resourceFieldRef"), out);
    }
    if (from.configMapKeyRef) {
      ++sources;
      validateKeySelector(*from.configMapKeyRef, child(fromPath, "configMapKeyRef"), out);
    }
    if (from.secretKeyRef) {
      ++sources;
      validateKeySelector(*from.secretKeyRef, child(fromPath, "secretKeyRef"), out);
    }
    if (sources == 0)
      out.push_back(invalid(fromPath, value(""),
                            "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`"));
    else if (!e.value.empty())
      out.push_back(invalid(fromPath, value(""), "may not be specified when `value` is not empty"));
    else if (sources > 1)
      out.push_back(invalid(fromPath, value(""), "may not have more than one field specified at a time"));
  }
}

void validateMounts(const std::vector<VolumeMount>& mounts, const PodContext& pod, const std::string& path, FieldErrs& out) {
  std::set<std::string, std::less<>> mountPoints;
  for (size_t i = 0; i < mounts.size(); ++i) {
    const auto& m = mounts[i];
    const std::string idx = index(path, i);
    if (m.name.empty()) out.push_back(required(child(idx, "name")));
    if (!pod.volumes.count(m.name)) out.push_back(notFound(child(idx, "name"), value(m.name)));
    if (m.mountPath.empty()) out.push_back(required(child(idx, "mountPath")));
    if (!mountPoints.insert(m.mountPath).second)
      out.push_back(invalid(child(idx, "mountPath"), value(m.mountPath), "must be unique"));
    // Kubernetes reports subPath errors on the list path, not the item's.
    if (!m.subPath.empty()) validateLocalDescendingPath(m.subPath, child(path, "subPath"), out);
  }
}

void validateCommon(const Container& c, const PodContext& pod, const std::string& path, FieldErrs& out) {
  if (c.name.empty())
    out.push_back(required(child(path, "name")));
  else
    invalidEach(out, child(path, "name"), value(c.name), isDNS1123Label(c.name));
  if (c.image.empty()) out.push_back(required(child(path, "image")));
  validatePorts(c.ports, pod, child(path, "ports"), out);
  validateEnv(c.env, child(path, "env"), out);
  validateMounts(c.volumeMounts, pod, child(path, "volumeMounts"), out);
  validateResourceRequirements(c.resources, validateContainerResourceName, child(path, "resources"), out);
}

}  // namespace

bool hasUnknownField(const UnknownFields& unknown, std::string_view key) {
  for (const auto& [k, v] : unknown)
    if (k == key) return true;
  return false;
}

void validateLocalDescendingPath(std::string_view target, const std::string& field, FieldErrs& out) {
  if (!target.empty() && target.front() == '/') out.push_back(invalid(field, value(target), "must be a relative path"));
  size_t start = 0;
  while (start <= target.size()) {
    size_t slash = target.find('/', start);
    if (slash == std::string_view::npos) slash = target.size();
    if (target.substr(start, slash - start) == "..") {
      out.push_back(invalid(field, value(target), "must not contain '..'"));
      break;
    }
    start = slash + 1;
  }
}

void validateContainers(const std::vector<Container>& containers, const PodContext& pod, std::string_view path,
                        FieldErrs& out) {
  if (containers.empty()) out.push_back(required(std::string(path)));
  std::set<std::string, std::less<>> names;
  std::vector<const Container*> all;
  for (size_t i = 0; i < containers.size(); ++i) {
    const std::string idx = index(path, i);
    validateCommon(containers[i], pod, idx, out);
    if (!names.insert(containers[i].name).second)
      out.push_back(duplicate(child(idx, "name"), value(containers[i].name)));
    all.push_back(&containers[i]);
  }
  checkHostPortConflicts(all, pod, path, out);
}

void validateInitContainers(const std::vector<Container>& init, const std::vector<Container>& regular,
                            const PodContext& pod, std::string_view path, FieldErrs& out) {
  std::set<std::string, std::less<>> names;
  for (const auto& c : regular) names.insert(c.name);
  for (size_t i = 0; i < init.size(); ++i) {
    const Container& c = init[i];
    const std::string idx = index(path, i);
    validateCommon(c, pod, idx, out);
    if (names.count(c.name))
      out.push_back(duplicate(child(idx, "name"), value(c.name)));
    else if (!c.name.empty())
      names.insert(c.name);
    checkHostPortConflicts({&c}, pod, path, out);  // init containers run one at a time
    if (isRestartableInitContainer(c)) continue;
    for (auto field : {"lifecycle", "livenessProbe", "readinessProbe", "startupProbe"})
      if (hasUnknownField(c.unknown, field))
        out.push_back(forbidden(child(idx, field), "may not be set for init containers without restartPolicy=Always"));
  }
}

}  // namespace jobhost::k8s
