// The svc plugin (placeholder until the shipped-plugins issue lands): exports its descriptor only.
// Built only against the public SDK.
#include <jobhost/jobhost.h>

namespace {
class SvcPlugin {};
}  // namespace

JOBHOST_PLUGIN(SvcPlugin, "svc", "0.1.0")
