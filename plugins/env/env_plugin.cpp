// The env plugin (placeholder until the shipped-plugins issue lands): exports its descriptor only.
// Built only against the public SDK.
#include <jobhost/jobhost.h>

namespace {
class EnvPlugin {};
}  // namespace

JOBHOST_PLUGIN(EnvPlugin, "env", "0.1.0")
