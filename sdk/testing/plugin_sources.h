// Where the harness finds its plugins: the host's search path plus the SDK's own plugin directory,
// and load errors of sharedObject() sources worded for a test (which has no config to fix).
#pragma once

#include <string>
#include <vector>

#include "host/config/config.h"

namespace jobhost::testing {

/// The host's search path for `config` (pluginSearchPath); in its default case (neither
/// $JOBHOST_PLUGIN_PATH nor a pluginPath) followed by shippedPluginDir() when that differs.
std::vector<std::string> harnessSearchPath(const HostConfig& config);

/// `error` of loading sharedObject(`path`), pointing at the path the test passed instead of a
/// config's "path" (and, for a relative path, at the working directory it is taken from).
std::string sharedObjectLoadError(const std::string& error, const std::string& path);

}  // namespace jobhost::testing
