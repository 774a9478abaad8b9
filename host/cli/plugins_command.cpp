// `jobhost plugins`: load the config's plugins and list name, version, ABI, points, activation
// and file; exit 3 with the loader's error when a required plugin cannot be loaded.
#include <algorithm>
#include <array>
#include <iomanip>
#include <ostream>
#include <string>
#include <vector>

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
  // Columns as wide as their widest cell (at least the usual width), so a third-party plugin with
  // a long name or many points does not run into the next column.
  using Row = std::array<std::string, 6>;
  std::vector<Row> rows{{"NAME", "VERSION", "ABI", "EXTENSION POINTS", "ACTIVATION", "FILE"}};
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
    rows.push_back({name, r.loaded.version, std::to_string(r.loaded.abiMajor) + "." + std::to_string(r.loaded.abiMinor),
                    points, r.entry.activation == Activation::Always ? "always" : "job", r.loaded.file});
  }
  std::array<size_t, 5> width{22, 9, 5, 46, 11};
  for (const Row& row : rows)
    for (size_t c = 0; c < width.size(); ++c) width[c] = std::max(width[c], row[c].size() + 1);
  for (const Row& row : rows) {
    for (size_t c = 0; c < width.size(); ++c) io.out << std::left << std::setw(static_cast<int>(width[c])) << row[c];
    io.out << row[5] << "\n";
  }
  for (const auto& w : warnings) io.err << "warning: " << w << "\n";
  return kOk;
}

}  // namespace jobhost::cli
