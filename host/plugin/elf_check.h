// Pre-load check of a plugin file: a truncated ELF file (a half-copied or interrupted build) would
// crash the host with SIGBUS inside dlopen, so its headers are checked against its size first.
#pragma once

#include <optional>
#include <string>

namespace jobhost {

// What keeps `file` from being loaded safely (a directory, unreadable, cut short), or nullopt.
// Files that are not ELF at all are left to dlopen, whose own error says so.
std::optional<std::string> elfLoadProblem(const std::string& file);

}  // namespace jobhost
