// The mpi plugin's flags, parsed with the SDK's FlagSet (Go `flag` rules).
// Names and defaults of master, worker and port are exactly Volcano's.
#include "mpi_options.h"

namespace mpi {

jobhost::Status parseMpiOptions(const jobhost::PluginArgs& args, MpiOptions& out) {
  out = MpiOptions{};
  jobhost::FlagSet flags("plugin mpi");
  flags.addString("master", &out.master);
  flags.addString("worker", &out.worker);
  flags.addInt("port", &out.port);
  flags.addInt("slots", &out.slots);
  jobhost::Status st = flags.parse(args);
  if (out.slots < 1) {
    const std::string bad = std::to_string(out.slots);
    out.slots = 1;
    if (st) st = jobhost::Status::error("plugin mpi: invalid value \"" + bad + "\" for flag -slots: must be >= 1");
  }
  return st;
}

}  // namespace mpi
