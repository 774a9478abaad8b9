// The torch plugin's flags: Volcano's pytorch flags plus torchrun's nproc-per-node, and which of
// its two names (`pytorch`, `torch`) a job uses, which decides the MASTER_PORT default.
#pragma once

#include <jobhost/jobhost.h>

#include <cstdint>
#include <string>

namespace torch {

inline constexpr int64_t kVolcanoPort = 23456;  // Volcano's pytorch default
inline constexpr int64_t kTorchrunPort = 29500;  // Trainer's PET_MASTER_PORT

struct TorchOptions {
  std::string master = "master";
  std::string worker = "worker";
  int64_t port = kTorchrunPort;
  bool waitMasterEnabled = false;
  int64_t waitMasterTimeout = 300;
  std::string waitMasterImage = "busybox:1.36.1";
  std::string nprocPerNode = "auto";  // "auto" or a positive integer
};

/// "pytorch" when the job's spec.plugins names the plugin only by Volcano's name, else "torch".
/// Used for the port default, the marker and the field path of argument errors.
std::string jobPluginName(const jobhost::Job& job);

/// Parses `args` into `out`; defaults first, the port default being 23456 under "pytorch" and
/// 29500 under "torch". On error the flags parsed before the bad one keep their values, a bad
/// nproc-per-node falls back to "auto", and the message names the plugin and the flag.
jobhost::Status parseTorchOptions(const jobhost::PluginArgs& args, const std::string& name,
                                  TorchOptions& out);

}  // namespace torch
