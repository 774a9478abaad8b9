// `jobhost simulate JOB --script FILE`: the job on the sim backend under the virtual clock, driven
// by a scripted timeline; prints one JSON line per request the controller handled, then the status.
#include <ostream>

#include "host/cli/cli.h"
#include "host/cli/job_intake.h"
#include "host/cluster/sim/run_simulation.h"
#include "host/plugin/plugin_job_plugins.h"
#include "host/plugin/plugin_validation.h"
#include "host/spec/uid.h"

namespace jobhost::cli {

int simulateCommand(const Args& args, Streams io) {
  if (args.positionals.size() != 1 || !args.has("script")) {
    io.err << "jobhost simulate: give one job file and --script FILE\n";
    return kUsage;
  }
  auto config = loadConfig(args, io);
  if (!config) return kConfigError;
  auto script = loadSimulationScript(*args.get("script"));
  if (!script) {
    io.err << script.error() << "\n";
    return kInputError;
  }
  auto registry = Registry::load(*config);
  if (!registry) {
    io.err << "jobhost: plugin load failed: " << registry.error() << "\n";
    return kConfigError;
  }
  auto jobs = admitJobFile(args.positionals[0], *config, admissionConfig(*config, **registry));
  if (!jobs) {
    io.err << jobs.error() << "\n";
    return kInputError;
  }
  if (jobs->size() != 1) {
    io.err << args.positionals[0] << ": holds " << jobs->size() << " jobs; simulate runs exactly one\n";
    return kUsage;
  }
  const AdmittedJob& admitted = jobs->front();
  if (!admitted.admission.allowed) {
    io.err << args.positionals[0] << ": job " << jobKey(admitted.document.job) << ": rejected\n";
    printFindings(admitted, io.err);
    return kRejected;
  }
  Job job = admitted.document.job;
  if (job.metadata.uid.empty()) job.metadata.uid = stableUid(job.metadata.namespace_, job.metadata.name);
  PluginJobPlugins plugins(*registry, config->priorityClasses);
  Status st = runSimulation(job, *script, plugins, config->controller, io.out, config->sim);
  if (!st) {
    io.err << "jobhost simulate: " << st.message() << "\n";
    return kRejected;
  }
  return kOk;
}

}  // namespace jobhost::cli
