// The mpi plugin's view of the hosts: MPI_HOST (Volcano's worker hosts), and the `<job>-mpi-hostfile`
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

/// `<hostname>.<subdomain>` per replica of `task`, a single entry when the template sets a hostname.
std::vector<std::string> taskHosts(const jobhost::Job& job, const jobhost::TaskSpec& task);
std::string hostfileConfigMapName(const jobhost::Job& job);
/// The hostfile ConfigMap, or nullopt when the job lacks the master or the worker task. It lists the
/// worker hosts, and with --run-launcher-as-node the master's too, in task order.
std::optional<jobhost::ConfigMap> hostfileConfigMap(const jobhost::Job& job, const MpiOptions& options);

}  // namespace mpi
