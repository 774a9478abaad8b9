// What the ssh plugin creates and mounts: the `<job>-ssh` Secret (id_rsa, id_rsa.pub,
// authorized_keys, config), the ssh `config` text, and the pod volume and mount of that Secret.
#pragma once

#include <jobhost/jobhost.h>

#include <string>

#include "ssh_keys.h"
#include "ssh_options.h"

namespace ssh {

/// `<job>-ssh`: the Secret and the pod volume.
std::string secretName(const jobhost::Job& job);
/// "StrictHostKeyChecking no\nUserKnownHostsFile /dev/null\n" then, per task and replica (one when
/// the template sets a hostname): "Host <h>\n  HostName <h>.<subdomain>\n  Port <port>\n".
std::string sshConfigText(const jobhost::Job& job, int64_t port);
/// The Secret: the user's keys verbatim when --ssh-private-key is set, else `generated`.
jobhost::Secret sshSecret(const jobhost::Job& job, const SshOptions& options, const SshKeyPair& generated);
/// Builds the Secret, generating a key pair unless the user supplied one.
jobhost::Status buildSshSecret(const jobhost::Job& job, const SshOptions& options, jobhost::Secret& out);
/// The Secret volume: items `.ssh/<key>`, defaultMode 0600 (0644 when the path is not /root/.ssh).
jobhost::Volume sshVolume(const jobhost::Job& job, const SshOptions& options);

}  // namespace ssh
