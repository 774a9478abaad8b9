// The ssh plugin's flags: names and defaults exactly as Volcano's ssh plugin.
// Parsed with the SDK's FlagSet (Go `flag` rules).
#include "ssh_options.h"

namespace ssh {

jobhost::Status parseSshOptions(const jobhost::PluginArgs& args, SshOptions& out) {
  out = SshOptions{};
  jobhost::FlagSet flags("plugin ssh");
  flags.addString("ssh-key-file-path", &out.keyFilePath);
  flags.addString("ssh-private-key", &out.privateKey);
  flags.addString("ssh-public-key", &out.publicKey);
  flags.addInt("ssh-port", &out.port);
  jobhost::Status st = flags.parse(args);
  if (out.port < 1 || out.port > 65535) out.port = 22;  // Volcano's validateSSHPort
  return st;
}

}  // namespace ssh
