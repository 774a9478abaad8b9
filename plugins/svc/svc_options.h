// The svc plugin's flags (Volcano's svc: publish-not-ready-addresses, disable-network-policy,
// inject-hosts-env), parsed with Go `flag` rules.
#pragma once

#include <jobhost/jobhost.h>

namespace svc {

struct SvcOptions {
  bool publishNotReadyAddresses = false;
  bool disableNetworkPolicy = false;
  bool injectHostsEnv = true;
};

/// Parses `args` into `out` (defaults first). On error the flags parsed before the bad one keep
/// their values, like Go's ContinueOnError, and the message names the plugin and the flag.
jobhost::Status parseSvcOptions(const jobhost::PluginArgs& args, SvcOptions& out);

}  // namespace svc
