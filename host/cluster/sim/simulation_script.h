// The `jobhost simulate` script: cluster shape, default and per-pod behaviour (one entry per
// incarnation), timed events (evictions, commands, node loss) and the stop time; its parser.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "host/cluster/sim/pod_behaviour.h"
#include "host/common/expected.h"
#include "host/config/config.h"

namespace jobhost {

/// Per-incarnation override of the defaults; unset fields take the default.
struct PodBehaviourOverride {
  std::optional<int64_t> startAfterMs;
  std::optional<int64_t> readyAfterMs;
  std::optional<std::optional<int64_t>> runForMs;  // inner nullopt: forever
  std::optional<int32_t> exitCode;
  std::optional<std::vector<int64_t>> restartsAtMs;
};

PodBehaviour applyOverride(PodBehaviour base, const PodBehaviourOverride& override);

struct ScriptEvent {
  enum class Kind { Evict, Command, LoseNode };
  int64_t atMs = 0;
  Kind kind = Kind::Evict;
  std::string pod;        // Evict; Command RestartPod
  std::string command;    // Command: AbortJob ResumeJob RestartJob TerminateJob CompleteJob RestartTask ...
  std::string task;       // Command RestartTask / RestartPartition (and optionally RestartPod)
  std::string partition;  // Command RestartPartition
  int node = 0;           // LoseNode: index into the cluster's nodes (node-<i>)
};

struct SimulationScript {
  std::string file;
  std::optional<SimBackendConfig> cluster;  // nullopt: the config's sim section
  PodBehaviour defaults;
  std::map<std::string, std::vector<PodBehaviourOverride>> pods;
  std::vector<ScriptEvent> events;  // sorted by time (stable)
  std::optional<int64_t> untilMs;   // nullopt: stop when the job finishes

  /// Behaviour of a pod's incarnation (1-based): the list entry, or the defaults past its end.
  PodBehaviour behaviourFor(const std::string& podName, int incarnation) const;
};

/// Parses script YAML. Errors read "<file>:<line>:<column>: <field>: <what is wrong>".
Expected<SimulationScript> parseSimulationScript(std::string_view text, const std::string& file);
Expected<SimulationScript> loadSimulationScript(const std::string& path);

}  // namespace jobhost
