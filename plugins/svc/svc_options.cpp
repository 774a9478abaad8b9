// The svc plugin's flags: names and defaults exactly as Volcano's svc plugin.
// Parsed with the SDK's FlagSet (Go `flag` rules).
#include "svc_options.h"

namespace svc {

jobhost::Status parseSvcOptions(const jobhost::PluginArgs& args, SvcOptions& out) {
  out = SvcOptions{};
  if (args.empty()) return jobhost::Status::ok();  // nothing to parse: the defaults
  jobhost::FlagSet flags("plugin svc");
  flags.addBool("publish-not-ready-addresses", &out.publishNotReadyAddresses);
  flags.addBool("disable-network-policy", &out.disableNetworkPolicy);
  flags.addBool("inject-hosts-env", &out.injectHostsEnv);
  return flags.parse(args);
}

}  // namespace svc
