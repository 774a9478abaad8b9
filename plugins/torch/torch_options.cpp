// The torch plugin's flags, parsed with the SDK's FlagSet (Go `flag` rules), and the choice of
// defaults by the name the job uses for the plugin.
#include "torch_options.h"

#include <charconv>

namespace torch {
namespace {

/// The value of a positive int32 in decimal, or 0 when `s` is not one.
int32_t positiveInt(const std::string& s) {
  int32_t v = 0;
  const char* end = s.data() + s.size();
  auto [p, ec] = std::from_chars(s.data(), end, v);
  return !s.empty() && ec == std::errc() && p == end && v >= 1 ? v : 0;
}

}  // namespace

std::string jobPluginName(const jobhost::Job& job) {
  const auto& plugins = job.spec.plugins;
  return plugins.count("pytorch") != 0 && plugins.count("torch") == 0 ? "pytorch" : "torch";
}

jobhost::Status parseTorchOptions(const jobhost::PluginArgs& args, const std::string& name,
                                  TorchOptions& out) {
  out = TorchOptions{};
  out.port = name == "pytorch" ? kVolcanoPort : kTorchrunPort;
  jobhost::FlagSet flags("plugin " + name);
  flags.addString("master", &out.master);
  flags.addString("worker", &out.worker);
  flags.addInt("port", &out.port);
  flags.addBool("wait-master-enabled", &out.waitMasterEnabled);
  flags.addInt("wait-master-timeout", &out.waitMasterTimeout);
  flags.addString("wait-master-image", &out.waitMasterImage);
  flags.addString("nproc-per-node", &out.nprocPerNode);
  jobhost::Status st = flags.parse(args);
  if (out.nprocPerNode == "auto") return st;
  if (const int32_t n = positiveInt(out.nprocPerNode)) {
    out.nprocPerNode = std::to_string(n);  // canonical, as Trainer's int32 prints: "007" is "7"
  } else {
    const std::string bad = out.nprocPerNode;
    out.nprocPerNode = "auto";
    if (st) st = jobhost::Status::error("plugin " + name + ": invalid value \"" + bad +
                                        "\" for flag -nproc-per-node: must be auto or a positive integer");
  }
  return st;
}

}  // namespace torch
