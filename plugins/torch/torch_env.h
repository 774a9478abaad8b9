// What the torch plugin injects: Volcano's MASTER_ADDR, MASTER_PORT, WORLD_SIZE, RANK followed by
// torchrun's PET_* variables, and the wait-for-master init container.
#pragma once

#include <jobhost/jobhost.h>

#include <optional>
#include <string>
#include <vector>

#include "torch_options.h"

namespace torch {

/// The job-wide values; nullopt when the job has no master task (then nothing is injected).
struct TorchJob {
  std::string masterAddr;  // "<master hostname>.<subdomain>" of master pod 0
  int64_t worldSize = 0;   // replicas(master) + replicas(worker)
};
std::optional<TorchJob> torchJob(const jobhost::Job& job, const TorchOptions& options);

/// RANK of a pod of task `taskKey`: 0 for the master, index + 1 for a worker, none otherwise.
/// `podIndex` is read only for workers; an unreadable index is an error.
jobhost::Status rankOf(const TorchOptions& options, const std::string& taskKey,
                       const std::string& podIndex, std::optional<int64_t>& rank);

/// PET_NPROC_PER_NODE for a pod with `containers`: the flag value; "auto" becomes
/// max(1, ceil(CPU)) when the pod requests no GPU (CPU: each container's request, or its limit
/// when it gives no request, summed).
std::string nprocPerNode(const TorchOptions& options, const std::vector<jobhost::Container>& containers);

/// In order: MASTER_ADDR, MASTER_PORT, WORLD_SIZE, [RANK], PET_NNODES, PET_NPROC_PER_NODE,
/// [PET_NODE_RANK], PET_MASTER_ADDR, PET_MASTER_PORT (bracketed ones only with a rank).
std::vector<jobhost::EnvVar> torchEnv(const TorchJob& job, const TorchOptions& options,
                                      std::optional<int64_t> rank, const std::string& nproc);

/// Whether `name` is one of torchrun's variables the plugin sets (PET_NNODES, PET_NPROC_PER_NODE,
/// PET_NODE_RANK, PET_MASTER_ADDR, PET_MASTER_PORT): Trainer's reserved names.
bool isTorchrunEnv(const std::string& name);

/// Under `pytorch` (Volcano YAML), `env` less the torchrun variables that the template of `task`
/// sets in `container`: Volcano's pytorch plugin sets none of them, so the user's stay. Under
/// `torch` validation refuses such a job, and `env` is returned whole.
std::vector<jobhost::EnvVar> withoutUserTorchrunEnv(std::vector<jobhost::EnvVar> env, const jobhost::Job& job,
                                                    const std::string& task, const std::string& container);

/// Appends the wait-for-master init container unless one with that name exists.
void addWaitForMaster(std::vector<jobhost::Container>& initContainers, const TorchOptions& options,
                      const std::string& masterAddr);

/// Moves the variables named in `order` to the end of `env`, in that order, so injected env reads
/// exactly as Volcano's appends even when the pipeline already placed some of it.
void moveToEnd(std::vector<jobhost::EnvVar>& env, const std::vector<jobhost::EnvVar>& order);

}  // namespace torch
