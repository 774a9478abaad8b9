// SimResources: a pod's request or a node's capacity on the sim cluster, in the units the
// scheduler compares; shared by the cluster and its node index.
#pragma once

#include <cstdint>

namespace jobhost {

/// CPU and memory in milli-units, GPUs whole (nvidia.com/gpu).
struct SimResources {
  int64_t cpuMilli = 0;
  int64_t memoryMilli = 0;
  int64_t gpu = 0;
  bool fitsIn(const SimResources& free) const {
    return cpuMilli <= free.cpuMilli && memoryMilli <= free.memoryMilli && gpu <= free.gpu;
  }
  SimResources& operator+=(const SimResources& o) {
    cpuMilli += o.cpuMilli;
    memoryMilli += o.memoryMilli;
    gpu += o.gpu;
    return *this;
  }
  SimResources& operator-=(const SimResources& o) {
    cpuMilli -= o.cpuMilli;
    memoryMilli -= o.memoryMilli;
    gpu -= o.gpu;
    return *this;
  }
};

}  // namespace jobhost
