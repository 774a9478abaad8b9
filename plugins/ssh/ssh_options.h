// The ssh plugin's flags (Volcano's ssh: ssh-key-file-path, ssh-private-key, ssh-public-key,
// ssh-port), parsed with Go `flag` rules; a port outside 1..65535 falls back to 22 like Volcano.
#pragma once

#include <jobhost/jobhost.h>

#include <cstdint>
#include <string>

namespace ssh {

inline constexpr const char* kDefaultKeyPath = "/root/.ssh";

struct SshOptions {
  std::string keyFilePath = kDefaultKeyPath;
  std::string privateKey;
  std::string publicKey;
  int64_t port = 22;
};

/// Parses `args` into `out` (defaults first), then applies Volcano's validateSSHPort. On a parse
/// error the flags parsed before the bad one keep their values; the message names the flag.
jobhost::Status parseSshOptions(const jobhost::PluginArgs& args, SshOptions& out);

}  // namespace ssh
