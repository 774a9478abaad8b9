// `jobhost simulate JOB --script FILE`: the job on the sim backend under the virtual clock, driven
// by a scripted timeline; prints one JSON line per request the controller handled, then the status.
#include <ostream>

#include "host/cli/cli.h"
#include "host/cli/job_intake.h"
#include "host/cluster/sim/run_simulation.h"
#include "host/plugin/plugin_job_plugins.h"
#include "host/spec/uid.h"

namespace jobhost::cli {

int simulateCommand(const Args& args, Streams io) {
  if (args.positionals.size() != 1 || !args.has("script")) {
    io.err << "jobhost simulate: give one job file and --script FILE\n";
    return kUsage;
  }
  int rc = kOk;
  auto host = loadHostSetup(args, io, &rc);
  if (!host) return rc;
  auto script = loadSimulationScript(*args.get("script"));
  if (!script) {
    io.err << script.error() << "\n";
    return kInputError;
  }
  auto admitted = admitSingleJob("simulate", args.positionals[0], *host, io, &rc);
  if (!admitted) return rc;
  Job job = admitted->document.job;
  if (Status checked = validateSimulationScript(*script, job, host->config.sim); !checked) {
    io.err << checked.message() << "\n";
    return kInputError;
  }
  for (const std::string& note : simulationScriptNotes(*script, job)) io.err << note << "\n";
  if (job.metadata.uid.empty()) job.metadata.uid = stableUid(job.metadata.namespace_, job.metadata.name);
  PluginJobPlugins plugins(host->registry, host->config.priorityClasses);
  ControllerConfig controllerConfig = host->config.controller;
  if (admitted->forwarded) controllerConfig.forwardingQueues.push_back(job.spec.queue);
  Status st = runSimulation(job, *script, plugins, controllerConfig, io.out, host->config.sim);
  if (!st) {
    io.err << "jobhost simulate: " << st.message() << "\n";
    return kRejected;
  }
  return kOk;
}

}  // namespace jobhost::cli
