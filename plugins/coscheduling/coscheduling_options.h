// The coscheduling plugin's one flag: the gang timeout in seconds, spelled scheduleTimeoutSeconds
// (Trainer's field name) or schedule-timeout-seconds; default 60. Go `flag` rules.
#pragma once

#include <jobhost/jobhost.h>

#include <cstdint>

namespace coscheduling {

inline constexpr int32_t kDefaultScheduleTimeoutSeconds = 60;

struct CoschedulingOptions {
  int32_t scheduleTimeoutSeconds = kDefaultScheduleTimeoutSeconds;
};

/// Parses `args` into `out` (defaults first). A negative timeout falls back to the default and is
/// an error; the message names the plugin and the flag.
jobhost::Status parseCoschedulingOptions(const jobhost::PluginArgs& args, CoschedulingOptions& out);

}  // namespace coscheduling
