// Secret plugin args: which flags carry key material or credentials, and args with their values
// replaced, for every output that is not a trusted sink (render, validate, patches, logs).
#pragma once

#include <string>
#include <vector>

namespace jobhost {

/// Plugin args with the values of secret flags (named like ssh's --ssh-private-key, or containing
/// password, token, secret or credential) replaced: `--flag=<redacted>`, and for the two-word
/// form `--flag VALUE` the word after the flag.
std::vector<std::string> redactArgs(const std::vector<std::string>& args);

}  // namespace jobhost
