// Admission checks of the torch plugin: its flags, and Trainer's rule that user env must not set
// the torchrun variables the plugin owns (PET_NNODES, PET_NPROC_PER_NODE, PET_NODE_RANK, ...).
#pragma once

#include <jobhost/jobhost.h>

namespace torch {

/// Appends one FieldError for a bad flag (field `spec.plugins.<name>`) and one per container whose
/// env sets reserved names (field `spec.tasks[i].template.spec.containers[j].env`).
void validateTorchJob(const jobhost::Job& job, const jobhost::PluginArgs& args,
                      jobhost::ValidationResult& out);

}  // namespace torch
