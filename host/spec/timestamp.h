// RFC 3339 timestamps as Kubernetes writes them (metav1.Time): parsing into and formatting from
// TimeMs, milliseconds since the Unix epoch.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "jobhost/meta.h"

namespace jobhost {

/// Parses "2026-01-02T03:04:05Z", with optional fractional seconds (kept to the millisecond,
/// truncated) and a "Z" or "+hh:mm"/"-hh:mm" offset. nullopt when malformed or out of range.
std::optional<TimeMs> parseRfc3339(std::string_view text);

/// UTC, whole seconds (floored), like metav1.Time: "2026-01-02T03:04:05Z".
std::string formatRfc3339(TimeMs time);

}  // namespace jobhost
