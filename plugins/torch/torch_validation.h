// Admission checks of the torch plugin: its flags, and the user env that sets the torchrun
// variables the plugin owns (PET_NNODES, PET_NPROC_PER_NODE, PET_NODE_RANK, ...).
#pragma once

#include <jobhost/jobhost.h>

namespace torch {

/// Appends a warning for a bad flag (`spec.plugins.<name>`), and for each container whose env sets
/// torchrun's reserved names (`spec.tasks[i].template.spec.containers[j].env`): under `torch`
/// Trainer's error, under `pytorch` (Volcano YAML, which Volcano runs as written) a warning that
/// the job's values are kept.
void validateTorchJob(const jobhost::Job& job, const jobhost::PluginArgs& args,
                      jobhost::ValidationResult& out);

}  // namespace torch
