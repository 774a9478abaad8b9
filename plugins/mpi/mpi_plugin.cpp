// The mpi plugin (placeholder until the shipped-plugins issue lands): exports its descriptor only.
// Built only against the public SDK.
#include <jobhost/jobhost.h>

namespace {
class MpiPlugin {};
}  // namespace

JOBHOST_PLUGIN(MpiPlugin, "mpi", "0.1.0")
