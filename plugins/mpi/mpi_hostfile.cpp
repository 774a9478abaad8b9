// Worker host names (Volcano's generateTaskHosts) and the hostfile ConfigMap, owned by the job.
// Pure functions of the job spec and the flags.
#include "mpi_hostfile.h"

namespace mpi {

std::vector<std::string> taskHosts(const jobhost::Job& job, const jobhost::TaskSpec& task) {
  const auto& spec = task.template_.spec;
  const std::string subdomain = spec.subdomain.empty() ? job.metadata.name : spec.subdomain;
  std::vector<std::string> hosts;
  for (int32_t i = 0; i < task.replicas; ++i) {
    const std::string host =
        spec.hostname.empty() ? job.metadata.name + "-" + task.name + "-" + std::to_string(i) : spec.hostname;
    hosts.push_back(host + "." + subdomain);
    if (!spec.hostname.empty()) break;
  }
  return hosts;
}

std::string hostfileConfigMapName(const jobhost::Job& job) { return job.metadata.name + "-mpi-hostfile"; }

std::optional<jobhost::ConfigMap> hostfileConfigMap(const jobhost::Job& job, const MpiOptions& options) {
  const jobhost::TaskSpec* worker = job.findTask(options.worker);
  if (job.findTask(options.master) == nullptr || worker == nullptr) return std::nullopt;
  jobhost::ConfigMap cm;
  cm.metadata = jobhost::volcano::ownedBy(job, hostfileConfigMapName(job));
  const std::string slots = std::to_string(slotsPerHost(job, options));
  std::string text;
  for (const auto& task : job.spec.tasks) {
    if (task.name != options.worker && (task.name != options.master || !options.runLauncherAsNode)) continue;
    for (const auto& host : taskHosts(job, task)) text += host + " slots=" + slots + "\n";
  }
  cm.data["hostfile"] = text;
  return cm;
}

}  // namespace mpi
