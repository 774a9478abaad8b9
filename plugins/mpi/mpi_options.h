// The mpi plugin's flags: Volcano's mpi flags (master, worker, port) plus Trainer's MPI policy:
// `slots` (numProcPerNode) and `run-launcher-as-node`. Go `flag` rules.
#pragma once

#include <jobhost/jobhost.h>

#include <cstdint>
#include <string>

namespace mpi {

struct MpiOptions {
  std::string master = "master";
  std::string worker = "worker";
  int64_t port = 22;
  int64_t slots = 1;
  bool slotsGiven = false;          // --slots was in the args (then the GPU rule does not apply)
  bool runLauncherAsNode = false;   // the master's hosts are in the hostfile too
};

/// Parses `args` into `out` (defaults first). On error the flags parsed before the bad one keep
/// their values, slots below 1 fall back to 1, and the message names the plugin and the flag.
jobhost::Status parseMpiOptions(const jobhost::PluginArgs& args, MpiOptions& out);

/// The options outside Validation: whatever parses, like Volcano (admission already reported a
/// bad flag).
MpiOptions effectiveOptions(const jobhost::PluginArgs& args);

/// Slots per host, Trainer's rule: `--slots` when given; else the GPU count of a worker pod when it
/// is above 1 (its containers' GPU requests, else limits); else 1.
int64_t slotsPerHost(const jobhost::Job& job, const MpiOptions& options);

}  // namespace mpi
