// PodBehaviour: how a simulated pod behaves once bound — start delay, readiness delay, run time,
// exit code of its first container, in-place container restarts.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "jobhost/pod.h"

namespace jobhost {

struct PodBehaviour {
  int64_t startAfterMs = 1000;             // bound -> Running
  int64_t readyAfterMs = 0;                // Running -> containers ready (again after a restart)
  std::optional<int64_t> runForMs = 10000;  // Running -> exit; nullopt runs until deleted
  int32_t exitCode = 0;                    // first container; 0 Succeeded, otherwise Failed
  std::vector<int64_t> restartsAtMs;       // after start: the first container restarts in place
  friend bool operator==(const PodBehaviour&, const PodBehaviour&) = default;
};

/// The behaviour of a pod's `incarnation`-th creation (1 for the first) under its name.
using PodBehaviourFn = std::function<PodBehaviour(const Pod& pod, int incarnation)>;

}  // namespace jobhost
