// runSimulation: wires VirtualClock + SimCluster + Controller, schedules the script's events and
// runs the driver; output goes through the controller's observer.
#include "host/cluster/sim/run_simulation.h"

#include <mutex>
#include <ostream>

#include "host/cluster/sim/sim_driver.h"
#include "host/cluster/sim/status_json.h"
#include "host/spec/encode.h"
#include "host/spec/writers.h"

namespace jobhost {

Status runSimulation(const Job& job, const SimulationScript& script, JobPlugins& plugins,
                     const ControllerConfig& controllerConfig, std::ostream& out, const SimBackendConfig& cluster) {
  VirtualClock clock(0);
  SimCluster sim(clock, script.cluster.value_or(cluster));
  sim.setBehaviour([&script](const Pod& pod, int incarnation) { return script.behaviourFor(pod.metadata.name, incarnation); });
  const std::string& ns = job.metadata.namespace_;
  for (const auto& v : job.spec.volumes)
    if (!v.volumeClaimName.empty() && !script.claimMissing(v.volumeClaimName)) sim.addPvc(ns, v.volumeClaimName);

  Controller controller(controllerConfig, clock, sim, plugins);
  std::mutex outMutex;
  controller.setObserver([&](const HandledRequest& r) {
    std::string line = handledRequestJson(r, 0);
    std::lock_guard lock(outMutex);
    out << line << '\n';
  });
  sim.setUnschedulableObserver([&](const PodGroup& pg) {
    std::string line = unschedulableJson(pg, clock.now());
    std::lock_guard lock(outMutex);
    out << line << '\n';
  });
  SimDriver driver(clock, sim, controller);
  controller.start();
  if (Status st = controller.submitJob(job); !st) {
    controller.stop();
    return st;
  }
  const std::string& name = job.metadata.name;
  for (const ScriptEvent& ev : script.events) {
    clock.schedule(ev.atMs, [&controller, &sim, ev, ns, name] {
      switch (ev.kind) {
        case ScriptEvent::Kind::Evict: sim.evictPod(ns, ev.pod); break;
        case ScriptEvent::Kind::LoseNode: sim.loseNode(ev.node); break;
        case ScriptEvent::Kind::RestoreNode: sim.restoreNode(ev.node); break;
        case ScriptEvent::Kind::CreatePvc: sim.addPvc(ns, ev.claim); break;
        case ScriptEvent::Kind::Command: {
          Command cmd{ns, name, ev.command, ev.task, ev.pod, ev.partition};
          (void)controller.issueCommand(cmd);
          break;
        }
      }
    });
  }

  JobStatus last;
  bool deleted = false;
  auto stop = [&] {
    auto current = controller.getJob(ns, name);
    if (!current) {
      deleted = true;
      return !script.untilMs;
    }
    last = current->status;
    return !script.untilMs && isFinished(last.state.phase);
  };
  driver.runUntil(script.untilMs.value_or(SimDriver::kForever), stop);
  stop();
  controller.stop();
  std::lock_guard lock(outMutex);
  rapidjson::Document doc;
  const std::string status = toJson(encodeJobStatusWith(last, doc.GetAllocator(), {.everyStatusField = true}), false);
  out << "{\"final\":" << status << ",\"t_ms\":" << clock.now();
  if (deleted) out << ",\"deleted\":true";
  out << "}\n";
  out.flush();
  return Status::ok();
}

}  // namespace jobhost
