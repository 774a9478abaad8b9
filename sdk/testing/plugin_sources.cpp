// PluginSource factories (sharedObject, shipped, inProcess), the SDK's plugin directory found from
// libjobhost_testing.so itself (dladdr), and the harness's wording of sharedObject() load errors.
#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>

#include "host/plugin/loader.h"
#include "jobhost/testing/harness.h"
#include "plugin_sources.h"

namespace jobhost::testing {

namespace fs = std::filesystem;

PluginSource sharedObject(std::string path, std::vector<std::string> args) {
  PluginSource s;
  s.path = std::move(path);
  s.args = std::move(args);
  return s;
}

PluginSource shipped(std::string name, std::vector<std::string> args) {
  PluginSource s;
  s.name = std::move(name);
  s.args = std::move(args);
  return s;
}

PluginSource inProcess(jobhost_plugin_entry_fn entry, std::vector<std::string> args) {
  PluginSource s;
  s.entry = entry;
  s.args = std::move(args);
  return s;
}

std::string shippedPluginDir() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<const void*>(&shippedPluginDir), &info) == 0 || info.dli_fname == nullptr) return {};
  // Installed: <prefix>/lib/libjobhost_testing.so beside <prefix>/lib/jobhost/plugins (the build
  // tree has the same layout).
  return (fs::absolute(info.dli_fname).parent_path() / "jobhost" / "plugins").lexically_normal().string();
}

std::vector<std::string> harnessSearchPath(const HostConfig& config) {
  std::vector<std::string> path = pluginSearchPath(config.pluginPath, config.baseDir);
  const char* env = std::getenv("JOBHOST_PLUGIN_PATH");
  if ((env != nullptr && *env != '\0') || !config.pluginPath.empty()) return path;
  const std::string sdk = shippedPluginDir();
  if (!sdk.empty() && std::find(path.begin(), path.end(), sdk) == path.end()) path.push_back(sdk);
  return path;
}

std::string sharedObjectLoadError(const std::string& error, const std::string& path) {
  const std::string configAdvice = "; fix the plugin's \"path\" in the config";
  if (!error.ends_with(configAdvice)) return error;
  std::string out = error.substr(0, error.size() - configAdvice.size()) + "; fix the path passed to sharedObject()";
  if (fs::path(path).is_relative())
    out += " (a relative path is taken from the working directory, " + fs::current_path().string() + ")";
  return out;
}

}  // namespace jobhost::testing
