// Flag and reserved-env validation of the torch plugin, with Trainer's message:
// "must not have reserved envs, invalid envs configured: [<sorted, space-separated>]".
#include "torch_validation.h"

#include <set>
#include <string>

#include "torch_options.h"

namespace torch {
namespace {

const std::set<std::string> kReserved = {"PET_NNODES", "PET_NPROC_PER_NODE", "PET_NODE_RANK",
                                         "PET_MASTER_ADDR", "PET_MASTER_PORT"};

}  // namespace

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
        if (kReserved.count(e.name) != 0) found.insert(e.name);
      if (found.empty()) continue;
      std::string list;
      for (const auto& n : found) list += (list.empty() ? "" : " ") + n;
      out.errors.push_back({"spec.tasks[" + std::to_string(t) + "].template.spec.containers[" +
                                std::to_string(c) + "].env",
                            "must not have reserved envs, invalid envs configured: [" + list + "]"});
    }
  }
}

}  // namespace torch
