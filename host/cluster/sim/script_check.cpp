// validateSimulationScript: the pods and nodes a simulate script scripts checked against the job and
// the cluster, so a typo is an error naming file:line:column and the field, not a silent default.
#include <algorithm>

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
};

Status error(const std::string& where, const std::string& field, const std::string& what) {
  return Status::error(where + ": " + field + ": " + what);
}

}  // namespace

Status validateSimulationScript(const SimulationScript& script, const Job& job, const SimBackendConfig& cluster) {
  const JobNames names{job};
  for (const auto& [pod, incarnations] : script.pods) {
    if (names.taskOfPod(pod)) continue;
    auto where = script.podWhere.find(pod);
    return error(where == script.podWhere.end() ? script.file : where->second, childPath("pods", pod), names.noPod(pod));
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
        if (ev->node >= nodes)
          return error(ev->where, field + ".loseNode",
                       nodes == 1 ? "the cluster has node 0 only" : "the cluster has nodes 0 .. " + std::to_string(nodes - 1));
        break;
      case ScriptEvent::Kind::Command:  // targets are the controller's: an unknown one is a no-op
        break;                            // or a targeted kill of nothing (spec §5.1), as on Volcano
    }
  }
  return Status::ok();
}

}  // namespace jobhost
