// Pod mutation of the mpi plugin. Env order on the master: MPI_HOST, OMPI_MCA_orte_default_hostfile,
// OMPI_MCA_orte_keep_fqdn_hostnames, OMPI_MCA_orte_set_default_slots, OMPI_MCA_plm_rsh_args.
#include "mpi_pod.h"

#include <algorithm>
#include <set>

#include "mpi_hostfile.h"

namespace mpi {
namespace {

/// Trainer's ssh options for mpirun, plus `-p <port>` when --port moves sshd off 22: the workers
/// listen there (a job that sets OMPI_MCA_plm_rsh_args itself keeps its own).
std::string rshArgs(const MpiOptions& options) {
  std::string args = "-o ConnectionAttempts=10";
  if (options.port != 22) args += " -p " + std::to_string(options.port);
  return args;
}

std::vector<jobhost::EnvVar> masterEnv(const jobhost::Job& job, const jobhost::TaskSpec& worker,
                                       const MpiOptions& options) {
  std::string hosts;
  for (const auto& h : taskHosts(job, worker)) hosts += (hosts.empty() ? "" : ",") + h;
  using jobhost::EnvVar;
  return {EnvVar::literal("MPI_HOST", hosts),
          EnvVar::literal("OMPI_MCA_orte_default_hostfile", kHostfilePath),
          EnvVar::literal("OMPI_MCA_orte_keep_fqdn_hostnames", "true"),
          EnvVar::literal("OMPI_MCA_orte_set_default_slots", std::to_string(slotsPerHost(job, options))),
          EnvVar::literal("OMPI_MCA_plm_rsh_args", rshArgs(options))};
}

jobhost::Volume hostfileVolume(const jobhost::Job& job) {
  jobhost::Volume volume;
  volume.name = kHostfileVolume;
  volume.configMap = jobhost::ConfigMapVolumeSource{};
  volume.configMap->name = hostfileConfigMapName(job);
  volume.configMap->items.push_back({"hostfile", "hostfile", 0444});
  return volume;
}

void moveToEnd(std::vector<jobhost::EnvVar>& env, const std::vector<jobhost::EnvVar>& order) {
  for (const auto& var : order) {
    auto it = std::find_if(env.begin(), env.end(), [&](const auto& e) { return e.name == var.name; });
    if (it != env.end()) std::rotate(it, it + 1, env.end());
  }
}

}  // namespace

bool isOpenMpiEnv(const std::string& name) {
  static const std::set<std::string> kOpenMpi = {"OMPI_MCA_orte_default_hostfile", "OMPI_MCA_orte_keep_fqdn_hostnames",
                                                 "OMPI_MCA_orte_set_default_slots", "OMPI_MCA_plm_rsh_args"};
  return kOpenMpi.count(name) != 0;
}

void decorateMpiPod(const jobhost::Job& job, const MpiOptions& options, const std::string& taskKey,
                    PodParts pod, const EnvSetter& setEnv) {
  const bool master = taskKey == options.master;
  const jobhost::TaskSpec* worker = job.findTask(options.worker);
  if (master && worker == nullptr) return;
  const auto env = master ? masterEnv(job, *worker, options) : std::vector<jobhost::EnvVar>{};
  jobhost::VolumeMount mount;
  mount.name = kHostfileVolume;
  mount.mountPath = kHostfileDir;
  for (auto* list : {&pod.initContainers, &pod.containers})
    for (auto& c : *list) {
      jobhost::volcano::openPort(c, "mpijob-port", options.port);
      const auto injected = jobhost::volcano::withoutTemplateEnv(env, job, taskKey, c.name, isOpenMpiEnv);
      for (const auto& var : injected) setEnv(c, var);
      moveToEnd(c.env, injected);
      if (master) jobhost::upsertVolumeMount(c.volumeMounts, mount);
    }
  if (master) jobhost::upsertVolume(pod.volumes, hostfileVolume(job));
}

}  // namespace mpi
