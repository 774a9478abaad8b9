// The jobhost command line: command table, shared option parsing, exit codes.
// runCli is the whole program minus main(), so tests call it in-process with captured streams.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "host/common/expected.h"
#include "host/config/config.h"

namespace jobhost::cli {

/// Exit codes (documented in the README).
enum ExitCode : int {
  kOk = 0,             // success; for `run`, the job Completed
  kRejected = 1,       // a job failed admission (validate/render/run/simulate)
  kUsage = 2,          // bad command line
  kConfigError = 3,    // config file invalid, or a required plugin failed to load
  kInputError = 4,     // a job or script file unreadable or malformed
  kJobFailed = 10,     // run: the job ended Failed
  kJobAborted = 11,    // run: the job ended Aborted
  kJobTerminated = 12, // run: the job ended Terminated
  kInterrupted = 130,  // run: stopped by SIGINT/SIGTERM (the job was terminated cleanly)
  kInternal = 70,      // a bug: please report it
};

struct Streams {
  std::ostream& out;
  std::ostream& err;
};

/// Parsed arguments of one command: positionals plus --name value / --name=value options.
struct Args {
  std::vector<std::string> positionals;
  std::vector<std::pair<std::string, std::string>> options;  // flags given without value: ""
  bool help = false;

  std::optional<std::string> get(const std::string& name) const;
  bool has(const std::string& name) const { return get(name).has_value(); }
};

/// Parses argv after the command name. `valued` lists options that take a value; `flags` lists
/// options that do not. Unknown options are errors.
Expected<Args> parseArgs(const std::vector<std::string>& argv, const std::vector<std::string>& valued,
                         const std::vector<std::string>& flags);

/// The config from --config, or the built-in default. Errors are printed to err.
std::optional<HostConfig> loadConfig(const Args& args, Streams io);

int runCli(const std::vector<std::string>& argv, Streams io);

// Commands (one file each).
int pluginsCommand(const Args& args, Streams io);
int validateCommand(const Args& args, Streams io);
int renderCommand(const Args& args, Streams io);
int simulateCommand(const Args& args, Streams io);
int runCommand(const Args& args, Streams io);

}  // namespace jobhost::cli
