// How containers are isolated, and which mode a config setting resolves to: native (jobhost's own
// mount, PID and UTS namespaces; native_container.h), bwrap (bubblewrap; bwrap.h) or none.
#pragma once

#include <string>

#include "host/common/expected.h"

namespace jobhost::local {

enum class Isolation { Native, Bwrap, None };
const char* toString(Isolation isolation);

/// "none" -> None; "native" or "bwrap" -> that mode, or an error saying why it cannot run here;
/// "auto" -> Native when a trial native container runs, else Bwrap when a trial bwrap does, else
/// None. Each trial runs once per process.
Expected<Isolation> resolveIsolation(const std::string& setting);

}  // namespace jobhost::local
