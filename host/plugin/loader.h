// The plugin loader: opens a plugin's shared object with Boost.DLL (or adopts an in-process
// entry), checks the C descriptor (ABI, build key) before any C++ object crosses, creates the instance.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "host/common/expected.h"
#include "jobhost/plugin.h"

namespace jobhost {

/// One created plugin instance and what it was loaded from. The instance's deleter keeps the
/// library loaded; libraries are never unloaded while the host runs.
struct LoadedPlugin {
  std::string name;            // from the descriptor
  std::string configuredName;  // the config's name (may differ only for path-loaded plugins)
  std::string version;
  std::string file;  // absolute path of the shared object
  uint32_t abiMajor = 0, abiMinor = 0;
  uint32_t capabilities = 0;
  std::shared_ptr<PluginInstance> instance;
};

/// What to load: a name searched along `searchPath` as lib jobhost_<name>.so, or an explicit path.
struct LoadRequest {
  std::string name;
  std::string path;  // absolute, or relative to baseDir
  std::string baseDir;
  std::vector<std::string> searchPath;
  std::vector<std::string> defaultArgs;
};

/// The file name a plugin called `name` has: libjobhost_<name>.so.
std::string pluginFileName(const std::string& name);

/// Resolves the file for a request: an explicit path as given (relative to baseDir), else the
/// first directory of searchPath holding pluginFileName(name). The error lists every place tried.
Expected<std::string> resolvePluginFile(const LoadRequest& request);

/// Loads, checks and creates. Each failure is one line naming the file and what to do.
/// Thread: call from one thread at a time (dlopen calls are serialised here too).
Expected<LoadedPlugin> loadPlugin(const LoadRequest& request);

/// The in-process path: takes the descriptor from `entry` (a plugin compiled into this binary with
/// JOBHOST_PLUGIN_STATIC_ENTRY, e.g. jobhost_plugin_entry_env) and applies exactly loadPlugin's
/// descriptor checks (ABI, build key, completeness) and create(). Only request.name (the configured
/// name; empty: the descriptor's) and request.defaultArgs are used. LoadedPlugin::file is
/// "<in-process NAME>". Thread: like loadPlugin.
Expected<LoadedPlugin> adoptPlugin(jobhost_plugin_entry_fn entry, const LoadRequest& request = {});

/// The default search path: $JOBHOST_PLUGIN_PATH (colon-separated) if set, else `configured`
/// (relative entries resolved against baseDir), else <dir of the jobhost binary>/../lib/jobhost/plugins.
std::vector<std::string> pluginSearchPath(const std::vector<std::string>& configured,
                                          const std::string& baseDir);

}  // namespace jobhost
