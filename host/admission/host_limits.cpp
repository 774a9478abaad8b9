// checkHostLimits: the pods-per-job limit (HostConfig controller.maxPodsPerJob), counted in 64 bits
// so replicas near INT32_MAX neither wrap nor slip under it.
#include "host/admission/host_limits.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>

namespace jobhost {

void checkHostLimits(const Job& job, const AdmissionConfig& config, Findings& findings) {
  if (config.maxPodsPerJob <= 0) return;
  int64_t total = 0;
  std::optional<size_t> crossing;
  for (size_t i = 0; i < job.spec.tasks.size(); ++i) {
    total += std::max<int64_t>(0, job.spec.tasks[i].replicas);  // negative replicas are a schema error
    if (!crossing && total > config.maxPodsPerJob) crossing = i;
  }
  if (!crossing) return;
  findings.add("spec.tasks[" + std::to_string(*crossing) + "].replicas",
               "the job has " + std::to_string(total) + " pods in all; this host runs at most " +
                   std::to_string(config.maxPodsPerJob) +
                   " per job (lower replicas, or raise controller.maxPodsPerJob in the config)");
}

}  // namespace jobhost
