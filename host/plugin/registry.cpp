// Registry construction: load in config order, refuse duplicate files or names and a second Status
// plugin, apply per-point enabled/disabled lists by name or alias ("*" clears a point's defaults).
#include "host/plugin/registry.h"

#include <algorithm>
#include <filesystem>
#include <mutex>

#include "host/common/log.h"
#include "host/plugin/call_deadline.h"

namespace jobhost {
namespace {
constexpr std::array<const char*, kPointCount> kPointNames = {
    "Validation", "MLPolicy", "PodGroupPolicy", "PodNetwork", "ComponentBuild", "Status", "JobHooks"};

/// The same library file, also under another path (a symlink, a relative path).
bool sameFile(const std::string& a, const std::string& b) {
  if (a.empty() || b.empty()) return false;
  std::error_code ec;
  return a == b || std::filesystem::equivalent(a, b, ec);
}
}  // namespace

const char* toString(Point point) { return kPointNames[static_cast<size_t>(point)]; }

uint32_t capabilityOf(Point point) { return 1u << static_cast<unsigned>(point); }

Registry::~Registry() {
  if (!deadline::anyQuarantined()) return;
  for (const auto& plugin : plugins_)
    if (deadline::isQuarantined(plugin)) {
      static std::mutex mutex;
      static auto* kept = new std::vector<std::vector<RegisteredPlugin>>;  // reachable, never freed
      std::lock_guard lock(mutex);
      kept->push_back(std::move(plugins_));  // moves the buffer: the records keep their addresses
      return;
    }
}

Expected<std::shared_ptr<Registry>> Registry::load(const HostConfig& config,
                                                   std::vector<std::string>* warnings) {
  const auto searchPath = pluginSearchPath(config.pluginPath, config.baseDir);
  std::vector<RegisteredPlugin> loaded;
  for (const auto& entry : config.plugins) {
    LoadRequest req{entry.name, entry.path, config.baseDir, searchPath, entry.args};
    auto plugin = loadPlugin(req);
    if (!plugin) {
      if (entry.required)
        return Expected<std::shared_ptr<Registry>>::failure(
            plugin.error() + " (required plugin, configured at " + entry.where + ")");
      const std::string skipped = "optional plugin skipped: " + plugin.error() + " (configured at " + entry.where + ")";
      if (warnings)
        warnings->push_back(skipped);  // the caller shows it once
      else
        log::get("loader")->warn("{}", skipped);
      continue;
    }
    RegisteredPlugin r;
    r.entry = entry;
    r.names.push_back(entry.name.empty() ? plugin->name : entry.name);
    for (const auto& a : entry.aliases) r.names.push_back(a);
    r.loaded = std::move(*plugin);
    loaded.push_back(std::move(r));
  }
  return fromLoaded(std::move(loaded), config);
}

Expected<std::shared_ptr<Registry>> Registry::fromLoaded(std::vector<RegisteredPlugin> plugins,
                                                         const HostConfig& config) {
  auto reg = std::make_shared<Registry>();
  for (size_t i = 0; i < plugins.size(); ++i)
    for (size_t j = 0; j < i; ++j) {
      if (sameFile(plugins[i].loaded.file, plugins[j].loaded.file))
        return Expected<std::shared_ptr<Registry>>::failure(
            plugins[i].loaded.file + ": plugin \"" + plugins[i].loaded.name + "\" is loaded twice" +
            (plugins[i].loaded.file == plugins[j].loaded.file ? "" : " (also as " + plugins[j].loaded.file + ")") +
            " (configured at " + plugins[j].entry.where + " and " + plugins[i].entry.where +
            "); remove the duplicate entry from the config");
      for (const auto& name : plugins[i].names)
        if (std::find(plugins[j].names.begin(), plugins[j].names.end(), name) != plugins[j].names.end())
          return Expected<std::shared_ptr<Registry>>::failure(
              plugins[i].loaded.file + ": plugin name \"" + name + "\" is already used by the plugin loaded from " +
              plugins[j].loaded.file + "; give one of them another \"name\" in the config");
    }
  reg->plugins_ = std::move(plugins);
  if (Status st = reg->buildPoints(config); !st)
    return Expected<std::shared_ptr<Registry>>::failure(st.message());
  return reg;
}

Status Registry::buildPoints(const HostConfig& config) {
  const auto& keys = extensionPointKeys();
  for (size_t p = 0; p < kPointCount; ++p) {
    const Point point = static_cast<Point>(p);
    auto& list = points_[p];
    const PointSelection* sel = nullptr;
    if (auto it = config.extensionPoints.find(keys[p]); it != config.extensionPoints.end())
      sel = &it->second;
    const bool disableAll =
        sel && std::find(sel->disabled.begin(), sel->disabled.end(), "*") != sel->disabled.end();
    for (const auto& r : plugins_) {
      if (!(r.loaded.capabilities & capabilityOf(point)) || disableAll) continue;
      if (sel && std::any_of(sel->disabled.begin(), sel->disabled.end(),
                             [&](const std::string& name) { return find(name) == &r; }))
        continue;
      list.push_back(&r);
    }
    if (sel) {
      for (const auto& name : sel->enabled) {
        const RegisteredPlugin* r = find(name);
        if (r == nullptr) continue;  // optional plugin that did not load
        if (!(r->loaded.capabilities & capabilityOf(point)))
          return Status::error(config.file + ": extensionPoints." + keys[p] + ".enabled names plugin \"" +
                               name + "\", which does not implement " + toString(point) +
                               "; remove it from that list");
        if (std::find(list.begin(), list.end(), r) == list.end()) list.push_back(r);
      }
    }
    if (point == Point::Status && list.size() > 1)
      return Status::error(config.file + ": too many Status plugins are registered (" + list[0]->names[0] +
                           ", " + list[1]->names[0] +
                           "); at most one may run at the status point: disable the others under "
                           "extensionPoints.status.disabled");
  }
  return Status::ok();
}

const RegisteredPlugin* Registry::find(std::string_view name) const {
  for (const auto& r : plugins_)
    for (const auto& n : r.names)
      if (n == name) return &r;
  return nullptr;
}

bool Registry::anyCallDeadline() const {
  return std::any_of(plugins_.begin(), plugins_.end(), [](const RegisteredPlugin& p) { return p.entry.callTimeout.ms > 0; });
}

bool Registry::isActive(const RegisteredPlugin& plugin, const Job& job) const {
  if (plugin.entry.activation == Activation::Always) return true;
  for (const auto& n : plugin.names)
    if (job.spec.plugins.count(n)) return true;
  return false;
}

std::vector<std::string> Registry::argsFor(const RegisteredPlugin& plugin, const Job& job) const {
  std::vector<std::string> args = plugin.entry.args;
  for (const auto& n : plugin.names)
    if (auto it = job.spec.plugins.find(n); it != job.spec.plugins.end())
      args.insert(args.end(), it->second.begin(), it->second.end());
  return args;
}

std::vector<ActivePlugin> Registry::activeAt(Point point, const Job& job) const {
  std::vector<ActivePlugin> out;
  for (const auto* r : at(point))
    if (isActive(*r, job)) out.push_back({r, argsFor(*r, job)});
  return out;
}

}  // namespace jobhost
