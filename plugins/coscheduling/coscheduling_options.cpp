// The coscheduling plugin's flag, parsed with the SDK's FlagSet (Go `flag` rules); both spellings
// set the same value, the last one given wins.
#include "coscheduling_options.h"

#include <string>

namespace coscheduling {

jobhost::Status parseCoschedulingOptions(const jobhost::PluginArgs& args, CoschedulingOptions& out) {
  out = CoschedulingOptions{};
  if (args.empty()) return jobhost::Status::ok();  // nothing to parse: the defaults
  jobhost::FlagSet flags("plugin coscheduling");
  flags.addInt("scheduleTimeoutSeconds", &out.scheduleTimeoutSeconds);
  flags.addInt("schedule-timeout-seconds", &out.scheduleTimeoutSeconds);
  jobhost::Status st = flags.parse(args);
  if (out.scheduleTimeoutSeconds < 0) {
    const std::string bad = std::to_string(out.scheduleTimeoutSeconds);
    out.scheduleTimeoutSeconds = kDefaultScheduleTimeoutSeconds;
    if (st)
      st = jobhost::Status::error("plugin coscheduling: invalid value \"" + bad +
                                  "\" for flag -scheduleTimeoutSeconds: must not be negative");
  }
  return st;
}

}  // namespace coscheduling
