// Capacity accounting of the local machine: the cpu/memory/gpu a pod asks for, what the machine
// offers (config or detected), and the arithmetic the gang scheduler uses.
#pragma once

#include <cstdint>
#include <string>

#include "host/config/config.h"
#include "jobhost/pod.h"

namespace jobhost::local {

/// CPU in millicores, memory in bytes, GPUs in whole devices.
struct Resources {
  int64_t cpuMilli = 0;
  int64_t memoryBytes = 0;
  int64_t gpus = 0;

  Resources& operator+=(const Resources& o);
  Resources& operator-=(const Resources& o);
  friend Resources operator+(Resources a, const Resources& b) { return a += b; }
  friend Resources operator-(Resources a, const Resources& b) { return a -= b; }
  /// Every dimension of *this fits into `available`.
  bool fitsIn(const Resources& available) const;
  std::string toString() const;  // "cpu 1500m, memory 2Gi, gpu 0"
  friend bool operator==(const Resources&, const Resources&) = default;
};

/// What one pod needs: Kubernetes' effective pod requests (limits stand in for missing requests);
/// GPUs are every resource whose name contains "gpu" (nvidia.com/gpu, amd.com/gpu).
Resources podDemand(const PodSpec& spec);

/// A PodGroup's minResources in the same units (empty when the PodGroup has none).
Resources fromResourceList(const ResourceList& list);

/// The machine: the config's cpu/memory/gpu where given, else online CPUs, physical memory and
/// the number of /dev/nvidia<N> devices.
Resources machineCapacity(const LocalBackendConfig& config);

}  // namespace jobhost::local
