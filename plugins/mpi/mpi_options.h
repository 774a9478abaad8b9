// The mpi plugin's flags: Volcano's mpi flags (master, worker, port) plus `slots`, the slots per
// worker in the hostfile (Trainer's numProcPerNode, default 1). Go `flag` rules.
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
};

/// Parses `args` into `out` (defaults first). On error the flags parsed before the bad one keep
/// their values, slots below 1 fall back to 1, and the message names the plugin and the flag.
jobhost::Status parseMpiOptions(const jobhost::PluginArgs& args, MpiOptions& out);

}  // namespace mpi
