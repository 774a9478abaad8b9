// The ssh plugin's Secret, config text and volume, as Volcano's ssh plugin builds them.
// Key material is only ever copied into the Secret, never logged.
#include "ssh_secret.h"

namespace ssh {

std::string secretName(const jobhost::Job& job) { return job.metadata.name + "-ssh"; }

std::string sshConfigText(const jobhost::Job& job, int64_t port) {
  std::string config = "StrictHostKeyChecking no\nUserKnownHostsFile /dev/null\n";
  for (const auto& task : job.spec.tasks) {
    const auto& spec = task.template_.spec;
    const std::string subdomain = spec.subdomain.empty() ? job.metadata.name : spec.subdomain;
    for (int32_t i = 0; i < task.replicas; ++i) {
      const std::string host =
          spec.hostname.empty() ? job.metadata.name + "-" + task.name + "-" + std::to_string(i) : spec.hostname;
      config += "Host " + host + "\n";
      config += "  HostName " + host + "." + subdomain + "\n";
      config += "  Port " + std::to_string(port) + "\n";
      if (!spec.hostname.empty()) break;
    }
  }
  return config;
}

jobhost::Secret sshSecret(const jobhost::Job& job, const SshOptions& options, const SshKeyPair& generated) {
  jobhost::Secret secret;
  secret.metadata = jobhost::volcano::ownedBy(job, secretName(job));
  secret.type = "Opaque";
  const bool userKeys = !options.privateKey.empty();
  const std::string& publicKey = userKeys ? options.publicKey : generated.publicKeyLine;
  secret.data["id_rsa"] = userKeys ? options.privateKey : generated.privateKeyPem;
  secret.data["id_rsa.pub"] = publicKey;
  secret.data["authorized_keys"] = publicKey;
  secret.data["config"] = sshConfigText(job, options.port);
  return secret;
}

jobhost::Status buildSshSecret(const jobhost::Job& job, const SshOptions& options, jobhost::Secret& out) {
  SshKeyPair keys;
  if (options.privateKey.empty())
    if (jobhost::Status st = generateRsaKeyPair(keys); !st) return st;
  out = sshSecret(job, options, keys);
  return jobhost::Status::ok();
}

jobhost::Volume sshVolume(const jobhost::Job& job, const SshOptions& options) {
  jobhost::Volume volume;
  volume.name = secretName(job);
  volume.secret = jobhost::SecretVolumeSource{};
  volume.secret->secretName = secretName(job);
  for (const char* key : {"id_rsa", "id_rsa.pub", "authorized_keys", "config"})
    volume.secret->items.push_back({key, std::string(".ssh/") + key, std::nullopt});
  volume.secret->defaultMode = options.keyFilePath == kDefaultKeyPath ? 0600 : 0644;
  return volume;
}

}  // namespace ssh
