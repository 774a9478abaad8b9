// The coscheduling plugin (placeholder until the shipped-plugins issue lands): exports its descriptor only.
// Built only against the public SDK.
#include <jobhost/jobhost.h>

namespace {
class CoschedulingPlugin {};
}  // namespace

JOBHOST_PLUGIN(CoschedulingPlugin, "coscheduling", "0.1.0")
