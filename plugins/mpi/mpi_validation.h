// Admission checks of the mpi plugin: its flags, the master task (Volcano's webhook), and Trainer's
// rule that user env on the master must not set the OMPI_MCA_* variables the plugin owns.
#pragma once

#include <jobhost/jobhost.h>

namespace mpi {

void validateMpiJob(const jobhost::Job& job, const jobhost::PluginArgs& args, jobhost::ValidationResult& out);

}  // namespace mpi
