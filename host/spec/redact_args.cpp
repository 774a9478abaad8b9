// Secret plugin args: flags named like key material or credentials, and their values replaced by
// `<redacted>` in args shown outside trusted sinks.
#include "host/spec/redact_args.h"

#include <string_view>

namespace jobhost {
namespace {

bool isSecretFlag(std::string_view name) {
  for (std::string_view word : {"private-key", "password", "token", "secret", "credential"})
    if (name.find(word) != std::string_view::npos) return true;
  return false;
}

}  // namespace

std::vector<std::string> redactArgs(const std::vector<std::string>& args) {
  std::vector<std::string> out = args;
  for (size_t i = 0; i < out.size(); ++i) {
    std::string_view arg = out[i];
    if (!arg.starts_with("-")) continue;
    const size_t eq = arg.find('=');
    if (!isSecretFlag(arg.substr(0, eq))) continue;
    if (eq != std::string_view::npos)
      out[i] = std::string(arg.substr(0, eq + 1)) + "<redacted>";
    else if (i + 1 < out.size() && !out[i + 1].starts_with("-"))
      out[++i] = "<redacted>";
  }
  return out;
}

}  // namespace jobhost
