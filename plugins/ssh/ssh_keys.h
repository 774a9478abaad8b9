// RSA-2048 key generation for the ssh plugin with OpenSSL 3: the private key as a PKCS#1 PEM
// block ("RSA PRIVATE KEY") and the public key as an OpenSSH authorized_keys line.
#pragma once

#include <jobhost/status.h>

#include <string>

namespace ssh {

struct SshKeyPair {
  std::string privateKeyPem;  // "-----BEGIN RSA PRIVATE KEY-----\n...-----END RSA PRIVATE KEY-----\n"
  std::string publicKeyLine;  // "ssh-rsa <base64 of the ssh-rsa wire format>\n"
};

/// Generates a fresh key pair into `out`. Thread-safe. Errors carry OpenSSL's reason, never key
/// material.
jobhost::Status generateRsaKeyPair(SshKeyPair& out);

}  // namespace ssh
