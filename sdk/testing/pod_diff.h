// describePodChange: what differs between two versions of one pod, list by list (env, mounts and
// ports of each container, volumes, labels, annotations), for the conformance suite's messages.
#pragma once

#include <string>

#include "jobhost/pod.h"

namespace jobhost::testing {

/// One part per list that differs, "<list>: [<before>] -> [<after>]", joined by "; ", e.g.
/// "container main env: [A=1] -> [A=1, A=1]"; a change outside these lists says so.
std::string describePodChange(const Pod& before, const Pod& after);

}  // namespace jobhost::testing
