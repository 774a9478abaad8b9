// validateSimulationScript: the pods, nodes and claims a simulate script names checked against the job
// and the cluster, so a typo is an error naming file:line:column and the field, not a silent default;
// simulationScriptNotes: scripted exits a cluster's restartPolicy would turn into in-place restarts.
#include <algorithm>
#include <optional>

#include "host/cluster/sim/simulation_script.h"
#include "host/common/source_doc.h"
#include "host/workload/names.h"

namespace jobhost {
namespace {

struct JobNames {
  const Job& job;

  /// The task whose pods include `pod`, or nullptr.
  const TaskSpec* taskOfPod(const std::string& pod) const {
    for (const auto& t : job.spec.tasks)
      for (int32_t i = 0; i < t.replicas; ++i)
        if (podName(job.metadata.name, t.name, i) == pod) return &t;
    return nullptr;
  }
  std::string key() const { return job.metadata.namespace_ + "/" + job.metadata.name; }
  std::string podList() const {
    std::string out;
    for (const auto& t : job.spec.tasks) {
      if (t.replicas <= 0) continue;
      std::string first = podName(job.metadata.name, t.name, 0);
      std::string range = t.replicas == 1   ? first
                          : t.replicas == 2 ? first + ", " + podName(job.metadata.name, t.name, 1)
                                            : first + " .. " + podName(job.metadata.name, t.name, t.replicas - 1);
      out += (out.empty() ? "" : ", ") + range;
    }
    return out.empty() ? "none" : out;
  }
  std::string noPod(const std::string& pod) const {
    return "the job " + key() + " has no pod \"" + pod + "\" (its pods: " + podList() + ")";
  }
  bool namesClaim(const std::string& claim) const {
    return std::any_of(job.spec.volumes.begin(), job.spec.volumes.end(),
                       [&](const JobVolume& v) { return v.volumeClaimName == claim; });
  }
  std::string noClaim(const std::string& claim) const {
    std::string claims;
    for (const auto& v : job.spec.volumes)
      if (!v.volumeClaimName.empty()) claims += (claims.empty() ? "" : ", ") + v.volumeClaimName;
    return "the job " + key() + " names no claim \"" + claim + "\" by volumeClaimName (" +
           (claims.empty() ? "it names none" : "its claims: " + claims) + ")";
  }
};

Status error(const std::string& where, const std::string& field, const std::string& what) {
  return Status::error(where + ": " + field + ": " + what);
}

/// Where a pod's behaviour came from: its `pods:` entry (incarnation k) or `defaults`.
struct ScriptedExit {
  std::string where, field, pod;
  PodBehaviour behaviour;
};

/// The first exit among `task`'s pods (every scripted incarnation; the defaults for an unscripted
/// pod) that the kubelet would restart in place under `always` (any exit) or OnFailure (non-zero).
std::optional<ScriptedExit> firstRestartedExit(const SimulationScript& script, const Job& job, const TaskSpec& task,
                                               bool always) {
  auto restarted = [always](const PodBehaviour& b) { return b.runForMs && (always || b.exitCode != 0); };
  for (int32_t i = 0; i < task.replicas; ++i) {
    const std::string pod = podName(job.metadata.name, task.name, i);
    auto scripted = script.pods.find(pod);
    if (scripted == script.pods.end()) {
      if (restarted(script.defaults)) return ScriptedExit{script.file, "defaults", pod, script.defaults};
      continue;
    }
    for (size_t k = 0; k < scripted->second.size(); ++k) {
      PodBehaviour b = script.behaviourFor(pod, static_cast<int>(k) + 1);
      if (!restarted(b)) continue;
      auto where = script.podWhere.find(pod);
      return ScriptedExit{where == script.podWhere.end() ? script.file : where->second,
                          indexPath(childPath("pods", pod), k), pod, b};
    }
  }
  return std::nullopt;
}

}  // namespace

Status validateSimulationScript(const SimulationScript& script, const Job& job, const SimBackendConfig& cluster) {
  const JobNames names{job};
  for (const auto& [pod, incarnations] : script.pods) {
    if (names.taskOfPod(pod)) continue;
    auto where = script.podWhere.find(pod);
    return error(where == script.podWhere.end() ? script.file : where->second, childPath("pods", pod), names.noPod(pod));
  }
  for (size_t i = 0; i < script.missingPvcs.size(); ++i) {
    const auto& [claim, where] = script.missingPvcs[i];
    if (!names.namesClaim(claim)) return error(where, indexPath("missingPvcs", i), names.noClaim(claim));
  }
  // Events in script order, so the first error reported is the first one in the file.
  std::vector<const ScriptEvent*> events;
  for (const auto& ev : script.events) events.push_back(&ev);
  std::sort(events.begin(), events.end(), [](const ScriptEvent* a, const ScriptEvent* b) { return a->index < b->index; });
  const int nodes = script.cluster ? script.cluster->nodes : cluster.nodes;
  for (const ScriptEvent* ev : events) {
    const std::string field = indexPath("events", ev->index);
    switch (ev->kind) {
      case ScriptEvent::Kind::Evict:
        if (!names.taskOfPod(ev->pod)) return error(ev->where, field + ".evict", names.noPod(ev->pod));
        break;
      case ScriptEvent::Kind::LoseNode:
      case ScriptEvent::Kind::RestoreNode:
        if (ev->node >= nodes)
          return error(ev->where, field + (ev->kind == ScriptEvent::Kind::LoseNode ? ".loseNode" : ".restoreNode"),
                       nodes == 1 ? "the cluster has node 0 only" : "the cluster has nodes 0 .. " + std::to_string(nodes - 1));
        break;
      case ScriptEvent::Kind::CreatePvc:
        if (!script.claimMissing(ev->claim))
          return error(ev->where, field + ".createPvc",
                       "\"" + ev->claim + "\" is not in missingPvcs: every other claim the job names exists from the start");
        break;
      case ScriptEvent::Kind::Command:  // targets are the controller's: an unknown one is a no-op
        break;                            // or a targeted kill of nothing (spec §5.1), as on Volcano
    }
  }
  return Status::ok();
}

std::vector<std::string> simulationScriptNotes(const SimulationScript& script, const Job& job) {
  std::vector<std::string> notes;
  for (const auto& task : job.spec.tasks) {
    const std::string& policy = task.template_.spec.restartPolicy;
    if (policy == "Never") continue;
    const bool always = policy != "OnFailure";  // "Always", or unset: Kubernetes' default
    auto exit = firstRestartedExit(script, job, task, always);
    if (!exit) continue;
    const int32_t code = exit->behaviour.exitCode;
    notes.push_back(exit->where + ": note: " + exit->field + ": " + exit->pod + " exits " + std::to_string(code) +
                    ", which the sim reports as Pod" + (code == 0 ? "Succeeded" : "Failed") +
                    ", as under restartPolicy Never; task \"" + task.name + "\" has restartPolicy " +
                    (always ? (policy.empty() ? "Always (unset)" : "Always") : "OnFailure") +
                    ", so on a cluster the kubelet would restart the container in place, the pod would stay "
                    "Running and no policy on its exit would fire (volcano#1407); script in-place restarts with "
                    "`restarts:`, or set restartPolicy: Never");
  }
  return notes;
}

}  // namespace jobhost
