// The local backend's preflight (see preflight.h): the same rules the pod start applies (a command
// to exec, a volume source to bind), checked on the job's templates so they fail with a field.
#include "host/cluster/local/preflight.h"

#include <string>

namespace jobhost::local {
namespace {

// The type of a volume the backend cannot provide ("" when it can).
std::string unsupportedType(const Volume& v) {
  if (v.configMap || v.secret || v.emptyDir || v.persistentVolumeClaim) return "";
  std::string type = "(none)";
  for (const auto& [key, json] : v.unknown) {
    if (key == "hostPath") return "";
    if (type == "(none)") type = key;
  }
  return type;
}

bool mounted(const PodSpec& spec, const std::string& volume) {
  for (const auto* list : {&spec.initContainers, &spec.containers})
    for (const auto& c : *list)
      for (const auto& m : c.volumeMounts)
        if (m.name == volume) return true;
  return false;
}

}  // namespace

std::vector<FieldError> preflight(const Job& job) {
  std::vector<FieldError> out;
  for (size_t t = 0; t < job.spec.tasks.size(); ++t) {
    const PodSpec& spec = job.spec.tasks[t].template_.spec;
    const std::string base = "spec.tasks[" + std::to_string(t) + "].template.spec.";
    for (const auto& [list, name] : {std::pair{&spec.initContainers, "initContainers"}, {&spec.containers, "containers"}})
      for (size_t c = 0; c < list->size(); ++c)
        if ((*list)[c].command.empty() && (*list)[c].args.empty())
          out.push_back({base + name + "[" + std::to_string(c) + "].command",
                         "must be set to run on the local backend, which runs this machine's programs and "
                         "cannot use the image's entrypoint"});
    for (size_t v = 0; v < spec.volumes.size(); ++v) {
      const std::string type = unsupportedType(spec.volumes[v]);
      if (type.empty() || !mounted(spec, spec.volumes[v].name)) continue;
      out.push_back({base + "volumes[" + std::to_string(v) + "]",
                     "volume type " + type + " is not supported by the local backend (it provides configMap, "
                     "secret, emptyDir, persistentVolumeClaim and hostPath): use a hostPath or an emptyDir"});
    }
  }
  return out;
}

}  // namespace jobhost::local
