// The ssh plugin (placeholder until the shipped-plugins issue lands): exports its descriptor only.
// Built only against the public SDK.
#include <jobhost/jobhost.h>

namespace {
class SshPlugin {};
}  // namespace

JOBHOST_PLUGIN(SshPlugin, "ssh", "0.1.0")
