// Flag and reserved-env validation of the torch plugin: Trainer's error under `torch`
// ("must not have reserved envs, invalid envs configured: [...]"), a warning under `pytorch`.
#include "torch_validation.h"

#include <set>
#include <string>

#include "torch_env.h"
#include "torch_options.h"

namespace torch {

void validateTorchJob(const jobhost::Job& job, const jobhost::PluginArgs& args,
                      jobhost::ValidationResult& out) {
  const std::string name = jobPluginName(job);
  TorchOptions options;
  if (jobhost::Status st = parseTorchOptions(args, name, options); !st)
    out.warnings.push_back(jobhost::ignoredFlagWarning("spec.plugins." + name, st));

  for (size_t t = 0; t < job.spec.tasks.size(); ++t) {
    const auto& containers = job.spec.tasks[t].template_.spec.containers;
    for (size_t c = 0; c < containers.size(); ++c) {
      std::set<std::string> found;
      for (const auto& e : containers[c].env)
        if (isTorchrunEnv(e.name)) found.insert(e.name);
      if (found.empty()) continue;
      std::string list;
      for (const auto& n : found) list += (list.empty() ? "" : " ") + n;
      const std::string field =
          "spec.tasks[" + std::to_string(t) + "].template.spec.containers[" + std::to_string(c) + "].env";
      if (name == "pytorch")  // Volcano YAML: Volcano's plugin sets none of them, the user's stay
        out.warnings.push_back(field + ": sets " + list +
                               ", which the pytorch plugin would set for torchrun; the job's values are kept");
      else
        out.errors.push_back({field, "must not have reserved envs, invalid envs configured: [" + list + "]"});
    }
  }
}

}  // namespace torch
