// Volcano's mpi OnPodCreate plus Trainer's OpenMPI wiring, for a pod or a pod set: the mpijob-port
// everywhere; on the master MPI_HOST, the four OMPI_MCA_* variables and the hostfile mount.
#pragma once

#include <jobhost/jobhost.h>

#include <functional>
#include <string>
#include <vector>

#include "mpi_options.h"

namespace mpi {

/// The parts of a pod (or of a pod set) the plugin changes.
struct PodParts {
  std::vector<jobhost::Container>& initContainers;
  std::vector<jobhost::Container>& containers;
  std::vector<jobhost::Volume>& volumes;
};
using EnvSetter = std::function<void(jobhost::Container&, const jobhost::EnvVar&)>;

/// Whether `name` is one of the four OMPI_MCA_* variables the plugin sets on the master.
bool isOpenMpiEnv(const std::string& name);

/// Mutates the parts of a pod of task `taskKey`; idempotent. A master pod is left untouched when
/// the job has no worker task (Volcano). Injected env ends each container's env, in order, except
/// an OMPI_MCA_* variable the task's template sets in that container: Volcano's mpi plugin sets
/// none of them, so the job's value stays where the job put it.
void decorateMpiPod(const jobhost::Job& job, const MpiOptions& options, const std::string& taskKey,
                    PodParts pod, const EnvSetter& setEnv);

}  // namespace mpi
