// The coscheduling plugin's flag, parsed with the SDK's FlagSet (Go `flag` rules); both spellings
// set the same value, the last one given wins.
#include "coscheduling_options.h"

#include <string>

namespace coscheduling {
namespace {

/// The spelling of the flag as the last argument that gives it wrote it, for messages.
std::string spellingUsed(const jobhost::PluginArgs& args) {
  std::string used = "scheduleTimeoutSeconds";
  for (const std::string& arg : args)
    if (arg.find("schedule-timeout-seconds") != std::string::npos) used = "schedule-timeout-seconds";
    else if (arg.find("scheduleTimeoutSeconds") != std::string::npos) used = "scheduleTimeoutSeconds";
  return used;
}

}  // namespace

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
                                  "\" for flag -" + spellingUsed(args) +
                                  ": must not be negative");
  }
  return st;
}

}  // namespace coscheduling
