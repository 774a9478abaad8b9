// The mpi plugin's view of the workers: MPI_HOST (Volcano), and the `<job>-mpi-hostfile`
// ConfigMap with one "<host> slots=<N>" line per worker host (Trainer's OpenMPI hostfile).
#pragma once

#include <jobhost/jobhost.h>

#include <optional>
#include <string>
#include <vector>

#include "mpi_options.h"

namespace mpi {

inline constexpr const char* kHostfileVolume = "mpi-hostfile";
inline constexpr const char* kHostfileDir = "/etc/mpi";
inline constexpr const char* kHostfilePath = "/etc/mpi/hostfile";

/// `<hostname>.<subdomain>` per worker replica, a single entry when the template sets a hostname.
std::vector<std::string> workerHosts(const jobhost::Job& job, const jobhost::TaskSpec& worker);
std::string hostfileConfigMapName(const jobhost::Job& job);
/// The hostfile ConfigMap, or nullopt when the job lacks the master or the worker task.
std::optional<jobhost::ConfigMap> hostfileConfigMap(const jobhost::Job& job, const MpiOptions& options);

}  // namespace mpi
