// The `jobhost simulate` script: cluster shape, default and per-pod behaviour (one entry per
// incarnation), missing claims, timed events (evictions, commands, nodes, claims), stop time; parser.
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
#include "jobhost/job.h"
#include "jobhost/status.h"

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
  enum class Kind { Evict, Command, LoseNode, RestoreNode, CreatePvc };
  int64_t atMs = 0;
  Kind kind = Kind::Evict;
  std::string pod;        // Evict; Command RestartPod
  std::string command;    // Command: AbortJob ResumeJob RestartJob TerminateJob CompleteJob RestartTask ...
  std::string task;       // Command RestartTask / RestartPartition (and optionally RestartPod)
  std::string partition;  // Command RestartPartition
  int node = 0;           // LoseNode, RestoreNode: index into the cluster's nodes (node-<i>)
  std::string claim;      // CreatePvc: a claim of `missingPvcs`
  size_t index = 0;       // its place in the script's `events` list (before sorting)
  std::string where;      // "<file>:<line>:<column>" of its evict / command / loseNode / restoreNode / createPvc value
};

struct SimulationScript {
  std::string file;
  std::optional<SimBackendConfig> cluster;  // nullopt: the config's sim section
  PodBehaviour defaults;
  std::map<std::string, std::vector<PodBehaviourOverride>> pods;
  std::map<std::string, std::string> podWhere;  // pod name -> "<file>:<line>:<column>" of its key
  /// Claims the job names by `volumeClaimName` that do not exist at submit (every other one does),
  /// with "<file>:<line>:<column>" of each entry; a `createPvc` event creates one later.
  std::vector<std::pair<std::string, std::string>> missingPvcs;
  std::vector<ScriptEvent> events;  // sorted by time (stable)
  std::optional<int64_t> untilMs;   // nullopt: stop when the job finishes

  /// Whether `claim` is listed under `missingPvcs`.
  bool claimMissing(const std::string& claim) const;
  /// Behaviour of a pod's incarnation (1-based): the list entry, or the defaults past its end.
  PodBehaviour behaviourFor(const std::string& podName, int incarnation) const;
};

/// Parses script YAML. Errors read "<file>:<line>:<column>: <field>: <what is wrong>".
Expected<SimulationScript> parseSimulationScript(std::string_view text, const std::string& file);
Expected<SimulationScript> loadSimulationScript(const std::string& path);

/// Checks the names a parsed script scripts against the (defaulted) job and the cluster it runs on:
/// `pods:` keys and `evict:` must be pods of the job (`<job>-<task>-<index>`), `loseNode:` and `restoreNode:` an index
/// below the node count (`script.cluster`, else `cluster`), `missingPvcs` claims the job names by
/// `volumeClaimName`, `createPvc:` one of `missingPvcs`. Command targets are not checked: the
/// controller handles an unknown task, pod or partition as Volcano does (spec §5.1). Errors read
/// "<file>:<line>:<column>: <field>: <what is wrong>".
Status validateSimulationScript(const SimulationScript& script, const Job& job, const SimBackendConfig& cluster);

/// The sim ends a pod on its scripted exit whatever its restartPolicy (as under Never). One note per
/// task whose restartPolicy (OnFailure; Always or unset) would instead restart a scripted exit in
/// place on a cluster, naming the first such pod: "<where>: note: <field>: <what differs>".
std::vector<std::string> simulationScriptNotes(const SimulationScript& script, const Job& job);

}  // namespace jobhost
