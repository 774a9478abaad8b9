// Pod demand and machine capacity for the local gang scheduler (see capacity.h).
// Detection reads sysconf and /dev; nothing here allocates machine resources.
#include "host/cluster/local/capacity.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>

#include "host/workload/resource_names.h"
#include "host/workload/resources.h"

namespace jobhost::local {

Resources& Resources::operator+=(const Resources& o) {
  cpuMilli += o.cpuMilli;
  memoryBytes += o.memoryBytes;
  gpus += o.gpus;
  return *this;
}

Resources& Resources::operator-=(const Resources& o) {
  cpuMilli -= o.cpuMilli;
  memoryBytes -= o.memoryBytes;
  gpus -= o.gpus;
  return *this;
}

bool Resources::fitsIn(const Resources& available) const {
  return cpuMilli <= available.cpuMilli && memoryBytes <= available.memoryBytes && gpus <= available.gpus;
}

std::string Resources::toString() const {
  char memory[32];
  const double gi = static_cast<double>(memoryBytes) / (1024.0 * 1024.0 * 1024.0);
  if (gi >= 1.0)
    std::snprintf(memory, sizeof memory, "%.1fGi", gi);
  else
    std::snprintf(memory, sizeof memory, "%lldMi", static_cast<long long>(memoryBytes >> 20));
  return "cpu " + Quantity::fromMilli(cpuMilli).toString() + ", memory " + memory + ", gpu " + std::to_string(gpus);
}

Resources fromResourceList(const ResourceList& list) {
  Resources r;
  for (const auto& [key, q] : list) {
    std::string_view name = key;
    if (name.starts_with(k8s::kLimitsPrefix)) continue;
    // Volcano's minResources carries a demand twice, as "cpu" and as the quota name "requests.cpu".
    if (name.starts_with(k8s::kRequestsPrefix)) {
      name.remove_prefix(k8s::kRequestsPrefix.size());
      if (list.find(std::string(name)) != list.end()) continue;
    }
    if (name == "cpu")
      r.cpuMilli += q.milliValue();
    else if (name == "memory")
      r.memoryBytes += q.value();
    else if (name.find("gpu") != std::string_view::npos)
      r.gpus += q.value();
  }
  return r;
}

Resources podDemand(const PodSpec& spec) { return fromResourceList(podRequests(spec)); }

Resources machineCapacity(const LocalBackendConfig& config) {
  Resources r;
  if (config.cpu) {
    r.cpuMilli = config.cpu->milliValue();
  } else {
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    r.cpuMilli = (cpus > 0 ? cpus : 1) * 1000;
  }
  if (config.memory) {
    r.memoryBytes = config.memory->value();
  } else {
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    r.memoryBytes = pages > 0 && size > 0 ? static_cast<int64_t>(pages) * size : 0;
  }
  if (config.gpu) {
    r.gpus = *config.gpu;
  } else {
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator("/dev", ec)) {
      const std::string name = entry.path().filename().string();
      if (name.size() > 6 && name.rfind("nvidia", 0) == 0 &&
          name.find_first_not_of("0123456789", 6) == std::string::npos)
        ++r.gpus;
    }
  }
  return r;
}

}  // namespace jobhost::local
