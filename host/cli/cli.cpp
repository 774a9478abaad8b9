// Command dispatch, --help / --version, and option parsing shared by every command.
// Each command's usage text lives in the table below; the commands live in their own files.
#include "host/cli/cli.h"

#include <algorithm>
#include <iostream>

#include "host/common/log.h"

#include "jobhost/version.h"

namespace jobhost::cli {
namespace {

struct Command {
  const char* name;
  const char* summary;
  const char* usage;
  std::vector<std::string> valued;
  std::vector<std::string> flags;
  int (*run)(const Args&, Streams);
};

const std::vector<Command>& commands() {
  static const std::vector<Command> table = {
      {"run", "run a job for real on this machine (local backend) and show its progress",
       "usage: jobhost run JOB [--config FILE]\n\n"
       "Admits the job and runs it on the local backend: every pod is a real process group on this\n"
       "machine, with its own loopback address, /etc/hosts, and ConfigMap/Secret files at their\n"
       "mount paths; the file's own ConfigMaps and Secrets are created first. Shows live progress\n"
       "(a redrawn view on a terminal, one line per change otherwise) and a summary with the log\n"
       "directory. Ctrl-C terminates the job cleanly.\n"
       "Exit codes: 0 Completed, 10 Failed, 11 Aborted, 12 Terminated, 1 rejected by admission,\n"
       "130 interrupted.\n",
       {"config"}, {}, &runCommand},
      {"plugins", "list the plugins the config loads",
       "usage: jobhost plugins [--config FILE]\n\n"
       "Loads every plugin the config names (the built-in default config when --config is not\n"
       "given) and prints, for each: name and aliases, version, ABI, extension points, activation\n"
       "and the file it came from. Exits 3 with the loader's error when a required plugin fails.\n",
       {"config"}, {}, &pluginsCommand},
      {"validate", "check jobs against admission (defaults, Volcano's rules, Validation plugins)",
       "usage: jobhost validate JOB... [--config FILE]\n\n"
       "Applies Volcano's defaults (mutation) to every job in the files and runs admission: Volcano's\n"
       "validating webhook rules with its wording, the CRD/VAP rules, and every Validation plugin the\n"
       "config loads. Prints each error as file:line:column: field: message, and the defaults applied\n"
       "to valid jobs. Exits 0 when every job passes, 1 when one is rejected, 4 when a file cannot be\n"
       "read or parsed.\n",
       {"config"}, {}, &validateCommand},
      {"render", "print every Kubernetes object a job creates when it starts",
       "usage: jobhost render JOB [--config FILE] [-o yaml|json] [--show-secrets]\n\n"
       "Admits the job, runs the plugin pipeline and the plugins' OnJobAdd and OnPodCreate hooks, and\n"
       "prints a Kubernetes v1 List, valid for kubectl apply -f, in this order: the defaulted Job, its\n"
       "PodGroup, ConfigMaps, Secrets, Services, NetworkPolicies, then every pod (task order, then\n"
       "index). Secret data is redacted unless --show-secrets is given. Exits 1 when the job is\n"
       "rejected or a plugin fails, 4 when the file cannot be read or parsed.\n",
       {"config", "o", "output"}, {"show-secrets"}, &renderCommand},
      {"simulate", "run a job on the simulated cluster under a virtual clock, following a script",
       "usage: jobhost simulate JOB --script FILE [--config FILE]\n\n"
       "Admits the job, then runs it on the sim backend (nodes from the script's `cluster`, else the\n"
       "config's backend.sim) under a virtual clock, following the script's pod behaviours and timed\n"
       "events. Prints one JSON object per request the controller handled (t_ms, event, pod,\n"
       "exitCode, action, delay_ms, phase, retryCount, version, pending, running, succeeded, failed,\n"
       "terminating, unknown), a line per PodGroup Unschedulable report, and a last line\n"
       "{\"final\": <job status>, \"t_ms\": <end>}. See README \"Simulating a job\".\n",
       {"config", "script"}, {}, &simulateCommand},
  };
  return table;
}

void printHelp(std::ostream& out) {
  out << "jobhost " JOBHOST_SDK_VERSION_STRING " - a batch-job controller host (Volcano jobs, plugin pipeline)\n\n"
         "usage: jobhost <command> [options]\n\ncommands:\n";
  for (const auto& c : commands()) {
    std::string name = c.name;
    name.resize(10, ' ');
    out << "  " << name << c.summary << "\n";
  }
  out << "\nglobal options:\n  --help       show help (also: jobhost <command> --help)\n"
         "  --version    print the jobhost and plugin ABI versions\n"
         "  --log-level LEVEL  trace|debug|info|warn|error|off (default warn; env JOBHOST_LOG_LEVEL)\n";
}

}  // namespace

std::optional<std::string> Args::get(const std::string& name) const {
  for (const auto& [k, v] : options)
    if (k == name) return v;
  return std::nullopt;
}

Expected<Args> parseArgs(const std::vector<std::string>& argv, const std::vector<std::string>& valued,
                         const std::vector<std::string>& flags) {
  Args out;
  auto isIn = [](const std::vector<std::string>& v, const std::string& s) {
    return std::find(v.begin(), v.end(), s) != v.end();
  };
  for (size_t i = 0; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    if (a == "--help" || a == "-h") {
      out.help = true;
      continue;
    }
    if (a.size() < 2 || a[0] != '-') {
      out.positionals.push_back(a);
      continue;
    }
    std::string name = a.substr(a[1] == '-' ? 2 : 1), value;
    bool hasValue = false;
    if (auto eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
      hasValue = true;
    }
    if (isIn(valued, name)) {
      if (!hasValue) {
        if (i + 1 >= argv.size()) return Expected<Args>::failure("option --" + name + " needs a value");
        value = argv[++i];
      }
      out.options.emplace_back(name, value);
    } else if (isIn(flags, name) && !hasValue) {
      out.options.emplace_back(name, "");
    } else {
      return Expected<Args>::failure("unknown option " + a);
    }
  }
  return out;
}

std::optional<HostConfig> loadConfig(const Args& args, Streams io) {
  auto path = args.get("config");
  auto config = path ? loadHostConfig(*path) : defaultHostConfig();
  if (!config) {
    io.err << "jobhost: config error: " << config.error() << "\n";
    return std::nullopt;
  }
  return *config;
}

int runCli(const std::vector<std::string>& argv, Streams io) {
  std::vector<std::string> rest;
  for (size_t i = 0; i < argv.size(); ++i) {
    if (argv[i] == "--log-level" || argv[i].rfind("--log-level=", 0) == 0) {
      std::string level = argv[i].size() > 11 ? argv[i].substr(12) : (i + 1 < argv.size() ? argv[++i] : "");
      if (!log::setLevel(level)) {
        io.err << "jobhost: unknown log level \"" << level << "\"; use trace, debug, info, warn, error or off\n";
        return kUsage;
      }
      continue;
    }
    rest.push_back(argv[i]);
  }
  if (rest.empty() || rest[0] == "--help" || rest[0] == "-h" || rest[0] == "help") {
    printHelp(rest.empty() ? io.err : io.out);
    return rest.empty() ? kUsage : kOk;
  }
  if (rest[0] == "--version" || rest[0] == "version") {
    io.out << "jobhost " JOBHOST_SDK_VERSION_STRING " (plugin ABI " << JOBHOST_ABI_MAJOR << "."
           << JOBHOST_ABI_MINOR << ", build key " JOBHOST_BUILD_KEY ")\n";
    return kOk;
  }
  for (const auto& c : commands()) {
    if (rest[0] != c.name) continue;
    auto args = parseArgs({rest.begin() + 1, rest.end()}, c.valued, c.flags);
    if (!args) {
      io.err << "jobhost " << c.name << ": " << args.error() << "\n\n" << c.usage;
      return kUsage;
    }
    if (args->help) {
      io.out << c.usage;
      return kOk;
    }
    try {
      return c.run(*args, io);
    } catch (const std::exception& e) {
      io.err << "jobhost " << c.name << ": internal error: " << e.what() << "\n";
      return kInternal;
    }
  }
  io.err << "jobhost: unknown command \"" << rest[0] << "\"\n\n";
  printHelp(io.err);
  return kUsage;
}

}  // namespace jobhost::cli
