// The plugin registry: every plugin the config names, loaded in config order, with aliases, the
// per-extension-point run order (kube-scheduler-style enabled/disabled), and per-job activation.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "host/config/config.h"
#include "host/plugin/loader.h"
#include "jobhost/job.h"

namespace jobhost {

enum class Point { Validation, MLPolicy, PodGroupPolicy, PodNetwork, ComponentBuild, Status, JobHooks };
inline constexpr size_t kPointCount = 7;
const char* toString(Point point);  // "Validation", "MLPolicy", ...
uint32_t capabilityOf(Point point);

struct RegisteredPlugin {
  LoadedPlugin loaded;
  PluginEntry entry;
  std::vector<std::string> names;  // configured name first, then aliases
};

/// A plugin active for one job, with that job's arguments (config defaults, then spec.plugins).
struct ActivePlugin {
  const RegisteredPlugin* plugin = nullptr;
  std::vector<std::string> args;
};

class Registry {
 public:
  /// Loads every plugin of the config. A required plugin that fails to load fails the whole load
  /// (the host refuses to start); an optional one is skipped and its error added to `warnings`.
  static Expected<std::shared_ptr<Registry>> load(const HostConfig& config,
                                                  std::vector<std::string>* warnings = nullptr);
  /// Builds a registry from plugins already loaded (tests, the SDK harness, static builds).
  static Expected<std::shared_ptr<Registry>> fromLoaded(std::vector<RegisteredPlugin> plugins,
                                                        const HostConfig& config);

  Registry() = default;
  Registry(const Registry&) = delete;
  Registry& operator=(const Registry&) = delete;
  /// When a call into one of its plugins was abandoned (pluginCallTimeout), the plugin records are
  /// kept (leaked): the abandoned thread read them and may still be inside that plugin.
  ~Registry();

  const std::vector<RegisteredPlugin>& plugins() const { return plugins_; }
  /// By configured name or alias; nullptr when unknown.
  const RegisteredPlugin* find(std::string_view name) const;
  /// The plugins of a point, in run order.
  const std::vector<const RegisteredPlugin*>& at(Point point) const {
    return points_[static_cast<size_t>(point)];
  }
  /// The plugins active for `job` at `point`, in run order, with their args.
  std::vector<ActivePlugin> activeAt(Point point, const Job& job) const;
  /// Whether `plugin` runs for `job` (activation always, or the job names it or an alias).
  bool isActive(const RegisteredPlugin& plugin, const Job& job) const;
  /// The args `plugin` gets for `job`: config defaults followed by the job's entry.
  std::vector<std::string> argsFor(const RegisteredPlugin& plugin, const Job& job) const;
  /// Whether some loaded plugin has a call deadline (callTimeout > 0).
  bool anyCallDeadline() const;

 private:
  Status buildPoints(const HostConfig& config);
  std::vector<RegisteredPlugin> plugins_;
  std::array<std::vector<const RegisteredPlugin*>, kPointCount> points_;
};

}  // namespace jobhost
