// Admission checks of the mpi plugin: its flags, the launcher-as-node replicas, and a warning when
// the master's env sets the OMPI_MCA_* variables the plugin would set (Volcano runs such a job).
#pragma once

#include <jobhost/jobhost.h>

namespace mpi {

void validateMpiJob(const jobhost::Job& job, const jobhost::PluginArgs& args, jobhost::ValidationResult& out);

}  // namespace mpi
