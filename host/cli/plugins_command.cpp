// `jobhost plugins`: load the config's plugins and list name, version, ABI, points, activation
// and file; exit 3 with the loader's error when a required plugin cannot be loaded.
#include <iomanip>
#include <ostream>

#include "host/cli/cli.h"
#include "host/plugin/registry.h"

namespace jobhost::cli {

int pluginsCommand(const Args& args, Streams io) {
  if (!args.positionals.empty()) {
    io.err << "jobhost plugins: unexpected argument \"" << args.positionals[0] << "\"\n";
    return kUsage;
  }
  auto config = loadConfig(args, io);
  if (!config) return kConfigError;
  std::vector<std::string> warnings;
  auto registry = Registry::load(*config, &warnings);
  if (!registry) {
    io.err << "jobhost: plugin load failed: " << registry.error() << "\n";
    return kConfigError;
  }
  io.out << std::left << std::setw(22) << "NAME" << std::setw(9) << "VERSION" << std::setw(5) << "ABI"
         << std::setw(46) << "EXTENSION POINTS" << std::setw(11) << "ACTIVATION" << "FILE\n";
  for (const auto& r : (*registry)->plugins()) {
    std::string name = r.names[0];
    if (r.names.size() > 1) {
      name += " (";
      for (size_t i = 1; i < r.names.size(); ++i) name += (i > 1 ? "," : "") + r.names[i];
      name += ")";
    }
    std::string points;
    for (size_t p = 0; p < kPointCount; ++p)
      if (r.loaded.capabilities & capabilityOf(static_cast<Point>(p)))
        points += (points.empty() ? "" : ",") + std::string(toString(static_cast<Point>(p)));
    if (points.empty()) points = "-";
    io.out << std::setw(22) << name << std::setw(9) << r.loaded.version << std::setw(5)
           << (std::to_string(r.loaded.abiMajor) + "." + std::to_string(r.loaded.abiMinor)) << std::setw(46)
           << points << std::setw(11) << (r.entry.activation == Activation::Always ? "always" : "job")
           << r.loaded.file << "\n";
  }
  for (const auto& w : warnings) io.err << "warning: " << w << "\n";
  return kOk;
}

}  // namespace jobhost::cli
