// Loading one plugin: resolve the file, check its ELF headers, dlopen it (RTLD_NOW|RTLD_LOCAL) through
// Boost.DLL (or take an in-process entry), check the descriptor, then create the instance behind a barrier.
#include "host/plugin/loader.h"

#include <boost/dll/runtime_symbol_info.hpp>
#include <boost/dll/shared_library.hpp>
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <sstream>

#include "host/common/log.h"
#include "host/plugin/elf_check.h"
#include "host/plugin/load_probe.h"
#include "jobhost/version.h"

namespace jobhost {
namespace fs = std::filesystem;
namespace {

std::mutex g_loadMutex;

// Libraries stay loaded for the life of the process (never dlclose'd): objects made by a plugin,
// and exceptions or vtables pointing into it, can never outlive their code.
void keepForever(const boost::dll::shared_library& lib) {
  static auto* libraries = new std::vector<boost::dll::shared_library>();
  libraries->push_back(lib);
}

std::string abiText(uint32_t major, uint32_t minor) {
  return std::to_string(major) + "." + std::to_string(minor);
}

Expected<LoadedPlugin> failure(const std::string& file, const std::string& message) {
  return Expected<LoadedPlugin>::failure(file + ": " + message);
}

/// What a descriptor that passed the ABI check lacks, or "" when it is complete.
std::string missingDescriptorField(const jobhost_plugin_descriptor& d) {
  if (d.struct_size < sizeof(jobhost_plugin_descriptor))
    return "it is " + std::to_string(d.struct_size) + " bytes, this host's is " +
           std::to_string(sizeof(jobhost_plugin_descriptor));
  if (!d.plugin_name) return "plugin_name is null";
  if (!d.build_key) return "build_key is null";
  if (!d.create) return "create is null";
  if (!d.destroy) return "destroy is null";
  return "";
}

/// A plugin name as jobhost_add_plugin's NAME: [a-z][a-z0-9_]*, at most 63 characters.
bool validPluginName(const std::string& name) {
  if (name.empty() || name.size() > 63 || name[0] < 'a' || name[0] > 'z') return false;
  return std::all_of(name.begin(), name.end(), [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; });
}

// Checks a descriptor (ABI, build key, completeness) and creates the instance. `keepAlive`
// (the library, or null in-process) is captured by the instance's deleter.
Expected<LoadedPlugin> instantiate(const jobhost_plugin_descriptor* d, const std::string& file,
                                   const LoadRequest& request, std::shared_ptr<const void> keepAlive) {
  if (d == nullptr) return failure(file, "entry function returned no descriptor; rebuild the plugin");
  if (d->struct_size < sizeof(uint32_t) * 3)
    return failure(file, "descriptor is truncated; rebuild the plugin against this SDK");
  const std::string name = d->struct_size >= sizeof(jobhost_plugin_descriptor) && d->plugin_name
                               ? d->plugin_name
                               : request.name;
  const std::string who = "plugin \"" + name + "\"";
  const std::string host = abiText(JOBHOST_ABI_MAJOR, JOBHOST_ABI_MINOR);
  if (d->abi_major != JOBHOST_ABI_MAJOR)
    return failure(file, who + " was built for plugin ABI " + abiText(d->abi_major, d->abi_minor) +
                             " but this host speaks ABI " + host +
                             "; rebuild the plugin against jobhost SDK " JOBHOST_SDK_VERSION_STRING);
  if (d->abi_minor > JOBHOST_ABI_MINOR)
    return failure(file, who + " needs plugin ABI " + abiText(d->abi_major, d->abi_minor) +
                             " but this host provides only " + host +
                             "; upgrade jobhost or rebuild the plugin against SDK " JOBHOST_SDK_VERSION_STRING);
  if (const std::string missing = missingDescriptorField(*d); !missing.empty())
    return failure(file, who + " has an incomplete descriptor (" + missing + "); rebuild it with JOBHOST_PLUGIN");
  if (!validPluginName(name))
    return failure(file, who + " has an invalid name: use lower-case letters, digits and '_', starting with a "
                               "letter, at most 63 characters (as jobhost_add_plugin's NAME); fix JOBHOST_PLUGIN's NAME");
  if (std::string(d->build_key) != JOBHOST_BUILD_KEY)
    return failure(file, who + " build key \"" + d->build_key + "\" does not match the host's \"" +
                             JOBHOST_BUILD_KEY +
                             "\"; rebuild the plugin with the same compiler family and C++ library");
  if (!request.name.empty() && request.path.empty() && name != request.name)
    return failure(file, "file is named for plugin \"" + request.name + "\" but its descriptor says \"" +
                             name + "\"; rename the file or fix the config");

  std::vector<const char*> argv;
  for (const auto& a : request.defaultArgs) argv.push_back(a.c_str());
  const std::string configured = request.name.empty() ? name : request.name;
  jobhost_plugin_settings settings{configured.c_str(), argv.data(), argv.size()};
  void* raw = nullptr;
  char error[1024] = {0};
  int rc = JOBHOST_CREATE_THREW;
  try {
    rc = d->create(&settings, &raw, error, sizeof(error));
  } catch (const std::exception& e) {
    return failure(file, who + " threw while starting (create): " + e.what() +
                             "; the plugin must not let exceptions escape, report this to its author");
  } catch (...) {
    return failure(file, who + " threw a non-standard exception while starting (create)"
                               "; report this to its author");
  }
  switch (rc) {
    case JOBHOST_CREATE_OK:
      break;
    case JOBHOST_CREATE_ARGS_REJECTED:
      return failure(file, who + " rejected its config args: " + error + "; fix its \"args\" in the config");
    case JOBHOST_CREATE_THREW:
      return failure(file, who + " threw while starting (create): " + error);
    default:
      return failure(file, who + " failed to start (create): " + (error[0] ? error : "no reason given"));
  }
  if (raw == nullptr) return failure(file, who + " create() returned success but no instance");
  if (d->capabilities == 0) {
    d->destroy(raw);
    return failure(file, who + " implements no extension point; derive its class from ValidationPlugin, "
                               "MLPolicyPlugin, PodGroupPolicyPlugin, PodNetworkPlugin, ComponentBuildPlugin, "
                               "StatusPlugin or JobHooksPlugin");
  }

  LoadedPlugin out;
  out.name = name;
  out.configuredName = configured;
  out.version = d->plugin_version ? d->plugin_version : "";
  out.file = file;
  out.abiMajor = d->abi_major;
  out.abiMinor = d->abi_minor;
  out.capabilities = d->capabilities;
  auto destroy = d->destroy;
  out.instance = std::shared_ptr<PluginInstance>(static_cast<PluginInstance*>(raw),
                                                 [destroy, keepAlive](PluginInstance* p) { destroy(p); });
  log::get("loader")->info("loaded plugin {} {} from {}", out.name, out.version, file);
  return out;
}

/// Whether `p` exists; an error other than "no such file" (a symlink loop, a name too long, a
/// directory that cannot be searched) is returned as text instead of thrown.
Expected<bool> existsAt(const fs::path& p) {
  std::error_code ec;
  const bool found = fs::exists(p, ec);
  if (ec) return Expected<bool>::failure(ec.message());
  return found;
}

/// dlopen's own words from Boost.DLL's load error, without Boost's wrapping, the file name dlerror
/// repeats, or the unrelated errno text Boost appends.
std::string dlopenMessage(const std::string& what, const std::string& file) {
  const std::string marker = "dlerror system message: ";
  const size_t at = what.find(marker);
  if (at == std::string::npos) return what;
  std::string message = what.substr(at + marker.size());
  if (const size_t close = message.rfind("):"); close != std::string::npos) message.erase(close);
  if (message.rfind(file + ": ", 0) == 0) message.erase(0, file.size() + 2);
  return "dlopen: " + message;
}

/// `p` made absolute, or `p` itself when the working directory cannot be read.
fs::path absoluteOr(const fs::path& p) {
  std::error_code ec;
  fs::path absolute = fs::absolute(p, ec);
  return ec ? p : absolute;
}

}  // namespace

std::string pluginFileName(const std::string& name) { return "libjobhost_" + name + ".so"; }

std::vector<std::string> pluginSearchPath(const std::vector<std::string>& configured,
                                          const std::string& baseDir) {
  std::vector<std::string> out;
  if (const char* env = std::getenv("JOBHOST_PLUGIN_PATH"); env != nullptr && *env != '\0') {
    std::stringstream ss(env);
    for (std::string dir; std::getline(ss, dir, ':');)
      if (!dir.empty()) out.push_back(dir);
    return out;
  }
  for (const auto& dir : configured) {
    fs::path p(dir);
    out.push_back(p.is_absolute() || baseDir.empty() ? p.string() : (fs::path(baseDir) / p).string());
  }
  if (out.empty()) {
    std::error_code ec;
    auto exe = boost::dll::program_location(ec);
    if (!ec) out.push_back((fs::path(exe).parent_path() / ".." / "lib" / "jobhost" / "plugins")
                               .lexically_normal().string());
  }
  return out;
}

Expected<std::string> resolvePluginFile(const LoadRequest& r) {
  if (!r.path.empty()) {
    fs::path p(r.path);
    if (!p.is_absolute() && !r.baseDir.empty()) p = fs::path(r.baseDir) / p;
    p = p.lexically_normal();
    auto found = existsAt(p);
    if (!found)
      return Expected<std::string>::failure(p.string() + ": cannot read the plugin file (" + found.error() +
                                            "); fix the plugin's \"path\" in the config");
    if (!*found)
      return Expected<std::string>::failure(
          p.string() + ": plugin file does not exist; fix the plugin's \"path\" in the config");
    return absoluteOr(p).string();
  }
  std::string tried;
  for (const auto& dir : r.searchPath) {
    fs::path candidate = fs::path(dir) / pluginFileName(r.name);
    auto found = existsAt(candidate);
    if (!found)
      return Expected<std::string>::failure(candidate.string() + ": cannot read the plugin file (" + found.error() +
                                            "); fix the plugin's name, \"pluginPath\" in the config or JOBHOST_PLUGIN_PATH");
    if (*found) return absoluteOr(candidate).lexically_normal().string();
    tried += (tried.empty() ? "" : ", ") + candidate.string();
  }
  return Expected<std::string>::failure(
      pluginFileName(r.name) + ": plugin \"" + r.name + "\" not found (looked in: " +
      (tried.empty() ? "an empty search path" : tried) +
      "); build it, set \"pluginPath\" in the config or JOBHOST_PLUGIN_PATH, or give its \"path\"");
}

Expected<LoadedPlugin> loadPlugin(const LoadRequest& request) {
  auto resolved = resolvePluginFile(request);
  if (!resolved) return Expected<LoadedPlugin>::failure(resolved.error());
  const std::string file = *resolved;
  if (auto problem = elfLoadProblem(file)) return failure(file, *problem);
  if (auto problem = probeLoadProblem(file)) return failure(file, *problem);
  std::lock_guard lock(g_loadMutex);

  boost::dll::shared_library lib;
  try {
    lib.load(file, boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local);
  } catch (const boost::dll::fs::system_error& e) {  // dlopen refused it
    const std::string message = dlopenMessage(e.what(), file);
    if (message.find("undefined symbol") != std::string::npos)
      return failure(file, "cannot be loaded (" + message + "); link the plugin with the library that defines "
                               "the symbol (jobhost_add_plugin links with -Wl,--no-undefined to catch this when building)");
    return failure(file, "not a loadable shared object (" + message +
                             "); point the config at a plugin built with jobhost_add_plugin()");
  } catch (const std::exception& e) {  // thrown by the plugin's static initialisation, through dlopen
    return failure(file, std::string("threw while it was loaded (in its static initialisation): ") + e.what() +
                             "; fix the plugin's global objects");
  } catch (...) {
    return failure(file, "threw a non-standard exception while it was loaded (in its static initialisation); "
                         "fix the plugin's global objects");
  }
  if (!lib.has(JOBHOST_ENTRY_NAME))
    return failure(file, "has no \"" JOBHOST_ENTRY_NAME
                         "\" entry symbol, so it is not a jobhost plugin; export one with "
                         "JOBHOST_PLUGIN(Class, \"name\", \"version\")");
  keepForever(lib);

  const jobhost_plugin_descriptor* d = nullptr;
  try {
    auto entry = lib.get_alias<const jobhost_plugin_descriptor*()>(JOBHOST_ENTRY_NAME);
    d = entry();
  } catch (const std::exception& e) {
    return failure(file, std::string("entry function failed: ") + e.what());
  } catch (...) {
    return failure(file, "entry function threw a non-standard exception");
  }
  return instantiate(d, file, request, std::make_shared<boost::dll::shared_library>(lib));
}

Expected<LoadedPlugin> adoptPlugin(jobhost_plugin_entry_fn entry, const LoadRequest& request) {
  if (entry == nullptr)
    return failure("<in-process>", "no entry function given; pass jobhost_plugin_entry_<name> of a plugin "
                                   "built with JOBHOST_PLUGIN_STATIC_ENTRY");
  const jobhost_plugin_descriptor* d = nullptr;
  try {
    d = entry();
  } catch (...) {
    return failure("<in-process>", "entry function threw; rebuild the plugin with JOBHOST_PLUGIN");
  }
  const char* name = d != nullptr && d->struct_size >= sizeof(jobhost_plugin_descriptor) ? d->plugin_name : nullptr;
  LoadRequest adopted = request;
  adopted.path = "<in-process>";  // like a path-loaded plugin, the configured name may differ
  std::lock_guard lock(g_loadMutex);
  return instantiate(d, std::string("<in-process ") + (name ? name : "plugin") + ">", adopted, nullptr);
}

}  // namespace jobhost
