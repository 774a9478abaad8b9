// The out-of-process load check: before the host dlopens a plugin file, jobhost-plugin-probe (next
// to the running program) dlopens it first, so a file that crashes the dynamic loader is refused.
#pragma once

#include <optional>
#include <string>

namespace jobhost {

/// Why `file` must not be loaded into this process (it crashed or hung the probe, or its static
/// initialisation threw there, which dlopen does not survive cleanly), or nullopt when
/// the probe loaded it, refused it cleanly (dlopen's own error follows in-process), or is not
/// installed next to the program. One probe per file (device, inode, size, time) per process.
std::optional<std::string> probeLoadProblem(const std::string& file);

}  // namespace jobhost
