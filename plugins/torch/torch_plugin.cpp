// The torch plugin (placeholder until the shipped-plugins issue lands): exports its descriptor only.
// Built only against the public SDK.
#include <jobhost/jobhost.h>

namespace {
class TorchPlugin {};
}  // namespace

JOBHOST_PLUGIN(TorchPlugin, "torch", "0.1.0")
