// Flag and launcher-as-node validation of the mpi plugin, with Go flag's and Trainer's messages, and
// a warning for master env that sets the plugin's OMPI_MCA_* variables (the job's values are kept).
#include "mpi_validation.h"

#include <set>
#include <string>

#include "mpi_options.h"
#include "mpi_pod.h"

namespace mpi {
namespace {

void checkContainers(const std::vector<jobhost::Container>& containers, const std::string& path,
                     jobhost::ValidationResult& out) {
  for (size_t c = 0; c < containers.size(); ++c) {
    std::set<std::string> found;
    for (const auto& e : containers[c].env)
      if (isOpenMpiEnv(e.name)) found.insert(e.name);
    if (found.empty()) continue;
    std::string list;
    for (const auto& n : found) list += (list.empty() ? "" : " ") + n;
    out.warnings.push_back(path + "[" + std::to_string(c) + "].env: sets " + list +
                           ", which the mpi plugin would set for OpenMPI; the job's values are kept");
  }
}

}  // namespace

void validateMpiJob(const jobhost::Job& job, const jobhost::PluginArgs& args, jobhost::ValidationResult& out) {
  MpiOptions options;
  if (jobhost::Status st = parseMpiOptions(args, options); !st) out.warnings.push_back(jobhost::ignoredFlagWarning("spec.plugins.mpi", st));
  // Trainer's launcher is the master task and its nodes the worker task: with runLauncherAsNode and
  // no worker task, the launcher is the only node, so numNodes (the master's replicas) must be 1.
  const bool launcherOnly = options.runLauncherAsNode && job.findTask(options.worker) == nullptr;
  for (size_t t = 0; t < job.spec.tasks.size(); ++t) {
    const auto& task = job.spec.tasks[t];
    if (task.name != options.master) continue;
    const std::string base = "spec.tasks[" + std::to_string(t) + "]";
    if (launcherOnly && task.replicas >= 2)
      out.errors.push_back({base + ".replicas", "must have 1 when MPI trainingRuntime with enabled runLauncherAsNode "
                                                "does not have either launcher and node"});
    checkContainers(task.template_.spec.initContainers, base + ".template.spec.initContainers", out);
    checkContainers(task.template_.spec.containers, base + ".template.spec.containers", out);
    return;
  }
  // A missing master task is reported by the host's admission (Volcano's webhook rule), not here.
}

}  // namespace mpi
