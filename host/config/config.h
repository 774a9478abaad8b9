// HostConfig: what a platform team writes in the JSON config file — plugins in order, per-point
// enable/disable lists, queues, controller and backend settings — and its strict parser.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "host/common/expected.h"
#include "jobhost/job.h"
#include "jobhost/quantity.h"

namespace jobhost {

/// How long one call into a plugin may take before the host abandons it (0 disables the deadline).
inline constexpr Duration kDefaultPluginCallTimeout{30000};

enum class Activation {
  Job,     // runs only for jobs that name it in spec.plugins (Volcano-style, the default)
  Always,  // runs for every job
};

struct PluginEntry {
  std::string name;  // registry name; required unless `path` is given (then taken from the plugin)
  std::string path;  // absolute, or relative to the config file's directory; optional
  bool required = true;
  Activation activation = Activation::Job;
  std::vector<std::string> args;     // default args, Go flag syntax
  std::vector<std::string> aliases;  // other names jobs may use in spec.plugins
  Duration callTimeout = kDefaultPluginCallTimeout;  // "callTimeout", else the config's pluginCallTimeout
  bool ownCallTimeout = false;       // callTimeout came from this entry, not pluginCallTimeout
  std::string where;                 // "file:line:col" of this entry, for messages
};

/// kube-scheduler-style PluginSet for one extension point.
struct PointSelection {
  std::vector<std::string> enabled;
  std::vector<std::string> disabled;  // "*" disables every default plugin of the point
};

struct QueueConfig {
  std::string name;
  std::string state = "Open";  // Open | Closed | Closing
  std::string parent;          // empty: child of root
  /// spec.extendClusters is non-empty: syncJob marks the queue's jobs and pods for forwarding
  /// (spec §5.2 step 2, §6.1); jobhost runs them here all the same.
  bool extendClusters = false;
};

struct ControllerConfig {
  int workers = 3;
  int maxRequeue = 15;  // -1: unlimited
  int64_t maxPodsPerJob = 100000;  // admission rejects a job with more pods in all; 0: no limit
  /// Queues whose jobs syncJob marks for forwarding (QueueConfig::extendClusters of the config's
  /// and the job file's queues); not a key of the config's "controller" object.
  std::vector<std::string> forwardingQueues = {};
};

struct LocalBackendConfig {
  std::string workDir;  // default: $XDG_RUNTIME_DIR or /tmp, see docs
  std::optional<Quantity> cpu;
  std::optional<Quantity> memory;
  std::optional<int64_t> gpu;
  int gracePeriodSeconds = 5;
  std::string isolation = "auto";  // auto (native, else bwrap, else none) | native | bwrap | none
};

struct SimBackendConfig {
  int nodes = 4;
  Quantity cpu = Quantity::fromMilli(8000);
  Quantity memory = Quantity::fromMilli(int64_t{32} * 1024 * 1024 * 1024 * 1000, Quantity::Format::BinarySI);
  int64_t gpu = 0;
};

struct HostConfig {
  std::string file;      // where it came from ("<built-in default>" for the embedded one)
  std::string baseDir;   // directory relative paths resolve against
  std::vector<std::string> pluginPath;
  std::vector<PluginEntry> plugins;
  std::map<std::string, PointSelection> extensionPoints;  // key: validation, mlPolicy, ...
  std::vector<QueueConfig> queues;                        // "default" always exists
  std::vector<std::string> schedulerNames;                // mutation default: first, else volcano
  std::map<std::string, int32_t> priorityClasses;         // name -> value, for PodGroup minResources
  Duration pluginCallTimeout = kDefaultPluginCallTimeout;  // default deadline of every plugin call
  ControllerConfig controller;
  LocalBackendConfig local;
  SimBackendConfig sim;
};

/// The extension point keys accepted under "extensionPoints", in pipeline order.
const std::vector<std::string>& extensionPointKeys();

/// Parses config JSON. Errors name file:line:column, the JSON path and what to change.
Expected<HostConfig> parseHostConfig(std::string_view text, const std::string& file);
/// Reads and parses a config file.
Expected<HostConfig> loadHostConfig(const std::string& path);
/// The built-in default (examples/config/default.json, embedded at build time).
Expected<HostConfig> defaultHostConfig();

}  // namespace jobhost
