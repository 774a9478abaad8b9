// The local backend's preflight (see preflight.h): the rules the pod start applies (a command to
// exec, a volume the sandbox can bind), checked on the job's templates so they fail with a field.
#include "host/cluster/local/preflight.h"

#include <string>

#include "host/cluster/local/sandbox.h"

namespace jobhost::local {
namespace {

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
      const std::string type = unsupportedVolumeType(spec.volumes[v]);
      if (type.empty() || !mounted(spec, spec.volumes[v].name)) continue;
      out.push_back({base + "volumes[" + std::to_string(v) + "]",
                     "volume type " + type + " is not supported by the local backend (it provides configMap, "
                     "secret, emptyDir, persistentVolumeClaim and hostPath): use a hostPath or an emptyDir"});
    }
  }
  return out;
}

}  // namespace jobhost::local
