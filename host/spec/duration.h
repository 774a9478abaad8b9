// Go time.Duration text: parsing (time.ParseDuration) and formatting (Duration.String()) for the
// job fields that Kubernetes serialises as metav1.Duration (policy timeout, runningEstimate, ...).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "jobhost/job.h"

namespace jobhost {

/// Parses Go duration syntax exactly like time.ParseDuration: an optional sign, then one or more
/// <number><unit> parts with decimal fractions allowed ("300ms", "-1.5h", "2h45m", "1h15m30.5s");
/// units ns, us, µs, ms, s, m, h; a bare "0" is zero. Totals beyond Go's int64 nanoseconds are
/// rejected. The result is truncated toward zero to whole milliseconds, except that a non-zero
/// duration under 1 ms becomes ±1 ms (a "500us" policy timeout still delays). nullopt when invalid.
std::optional<Duration> parseGoDuration(std::string_view text);

/// Go's Duration.String() for a millisecond duration: "0s", "500ms", "1.5s", "1m0s", "1h30m0s".
std::string formatGoDuration(Duration duration);

}  // namespace jobhost
