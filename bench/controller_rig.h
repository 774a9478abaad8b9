// The controller benchmarks' rig: a Controller with 2 workers on the sim backend under the
// virtual clock, with no plugins or the shipped ones loaded by the production loader.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>

#include "host/cluster/sim/sim_cluster.h"
#include "host/cluster/sim/sim_driver.h"
#include "host/config/config.h"
#include "host/controller/controller.h"
#include "host/controller/no_plugin_job_plugins.h"
#include "host/controller/virtual_clock.h"
#include "host/plugin/plugin_job_plugins.h"
#include "host/plugin/registry.h"

namespace jobhost::bench {

/// Which JobPlugins a benchmark runs with: none (workload builders only), or the shipped plugins
/// loaded by the production loader from lib/jobhost/plugins with the job naming env, svc and
/// coscheduling (and ssh, whose RSA-2048 key generation costs ~100 ms per job). The default
/// config guards every plugin call with a deadline (a helper-thread handoff per call);
/// EnvSvcCoschedNoDeadline sets pluginCallTimeout 0 so calls run inline. EnvSvcCoschedMpi adds
/// mpi, whose job is a master and pods-1 workers (the hosts ConfigMap and hostfile list every worker).
enum class Plugins { None, EnvSvcCosched, EnvSvcCoschedSsh, EnvSvcCoschedNoDeadline, EnvSvcCoschedMpi };

inline std::unique_ptr<JobPlugins> makeBenchPlugins(Plugins which) {
  if (which == Plugins::None) return std::make_unique<NoPluginJobPlugins>();
  HostConfig config = *defaultHostConfig();
  if (which == Plugins::EnvSvcCoschedNoDeadline)
    for (auto& entry : config.plugins) entry.callTimeout = Duration{0};
  auto registry = Registry::load(config);
  if (!registry) throw std::runtime_error("plugin load failed: " + registry.error());
  return std::make_unique<PluginJobPlugins>(*registry, config.priorityClasses);
}

/// `cpuMilli`: each pod's CPU request (0: none, so every pod fits every node).
inline Job benchJob(const std::string& name, int32_t pods, Plugins which = Plugins::None, int64_t cpuMilli = 0) {
  Job job;
  if (which != Plugins::None) job.spec.plugins = {{"env", {}}, {"svc", {}}, {"coscheduling", {}}};
  if (which == Plugins::EnvSvcCoschedSsh) job.spec.plugins["ssh"] = {};
  if (which == Plugins::EnvSvcCoschedMpi) job.spec.plugins["mpi"] = {};
  job.metadata.name = name;
  job.metadata.namespace_ = "bench";
  job.spec.queue = "default";
  job.spec.schedulerName = "volcano";
  job.spec.maxRetry = 3;
  job.spec.minAvailable = pods;
  TaskSpec task;
  task.name = "worker";
  task.replicas = pods;
  task.maxRetry = 3;
  Container c;
  c.name = "main";
  c.image = "busybox";
  if (cpuMilli > 0) c.resources.requests["cpu"] = Quantity::fromMilli(cpuMilli);
  task.template_.spec.containers.push_back(c);
  task.template_.spec.restartPolicy = "Never";
  if (which == Plugins::EnvSvcCoschedMpi) {
    TaskSpec master = task;
    master.name = "master";
    master.replicas = 1;
    job.spec.tasks.push_back(master);
    task.replicas = pods - 1;
  }
  job.spec.tasks.push_back(task);
  return job;
}

struct Rig {
  VirtualClock clock{0};
  std::unique_ptr<JobPlugins> plugins;
  SimCluster sim;
  Controller controller;
  SimDriver driver;
  explicit Rig(int workers, Plugins which = Plugins::None, const SimBackendConfig& cluster = {})
      : plugins(makeBenchPlugins(which)),
        sim(clock, cluster),
        controller(ControllerConfig{workers, 15}, clock, sim, *plugins),
        driver(clock, sim, controller) {
    controller.start();
  }
};

}  // namespace jobhost::bench
