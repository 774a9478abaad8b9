// The mpi plugin's flags, parsed with the SDK's FlagSet (Go `flag` rules), and the slots rule.
// Names and defaults of master, worker and port are exactly Volcano's.
#include "mpi_options.h"

#include <limits>

namespace mpi {

jobhost::Status parseMpiOptions(const jobhost::PluginArgs& args, MpiOptions& out) {
  // The slots sentinel tells "not given" from any value a user can mean (all of them are >= 1).
  constexpr int64_t kNotGiven = std::numeric_limits<int64_t>::min();
  out = MpiOptions{};
  out.slots = kNotGiven;
  jobhost::FlagSet flags("plugin mpi");
  flags.addString("master", &out.master);
  flags.addString("worker", &out.worker);
  flags.addInt("port", &out.port);
  flags.addInt("slots", &out.slots);
  flags.addBool("run-launcher-as-node", &out.runLauncherAsNode);
  flags.addBool("runLauncherAsNode", &out.runLauncherAsNode);
  jobhost::Status st = flags.parse(args);
  out.slotsGiven = out.slots != kNotGiven;
  if (!out.slotsGiven) {
    out.slots = 1;
  } else if (out.slots < 1) {
    const std::string bad = std::to_string(out.slots);
    out.slots = 1;
    out.slotsGiven = false;
    if (st) st = jobhost::Status::error("plugin mpi: invalid value \"" + bad + "\" for flag -slots: must be >= 1");
  }
  return st;
}

MpiOptions effectiveOptions(const jobhost::PluginArgs& args) {
  MpiOptions options;
  static_cast<void>(parseMpiOptions(args, options));
  return options;
}

int64_t slotsPerHost(const jobhost::Job& job, const MpiOptions& options) {
  if (options.slotsGiven) return options.slots;
  const jobhost::TaskSpec* worker = job.findTask(options.worker);
  const int64_t gpus = worker == nullptr ? 0 : jobhost::gpusRequested(worker->template_.spec.containers);
  return gpus > 1 ? gpus : 1;
}

}  // namespace mpi
