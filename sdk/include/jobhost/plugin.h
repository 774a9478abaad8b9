// What a plugin author writes once: JOBHOST_PLUGIN(Class, "name", "version"). It exports the C
// descriptor and wraps every extension-point call in an exception barrier compiled into the plugin.
#pragma once

#include <boost/dll/alias.hpp>
#include <cstring>
#include <exception>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "jobhost/descriptor.h"
#include "jobhost/extension_points.h"
#include "jobhost/version.h"

namespace jobhost {

/// Settings a plugin receives once, at creation.
struct PluginSettings {
  std::string configuredName;            // the name the config uses (e.g. the alias "pytorch")
  std::vector<std::string> defaultArgs;  // the config's default args (Go flag syntax)
};

/// The host's view of one plugin instance. Implemented by JOBHOST_PLUGIN inside the plugin; each
/// accessor returns the point's (barrier-wrapped) interface, or nullptr when the plugin does not
/// implement it. Pointers stay valid until the descriptor's destroy() is called for the instance.
class PluginInstance {
 public:
  virtual ValidationPlugin* validation() noexcept = 0;
  virtual MLPolicyPlugin* mlPolicy() noexcept = 0;
  virtual PodGroupPolicyPlugin* podGroupPolicy() noexcept = 0;
  virtual PodNetworkPlugin* podNetwork() noexcept = 0;
  virtual ComponentBuildPlugin* componentBuild() noexcept = 0;
  virtual StatusPlugin* status() noexcept = 0;
  virtual JobHooksPlugin* jobHooks() noexcept = 0;

 protected:
  ~PluginInstance() = default;  // destroyed only through the descriptor's destroy()
};

namespace detail {

/// Runs `f`, turning any exception into an error Status naming the call. Never throws.
template <class F>
Status barrier(const char* call, F&& f) noexcept {
  try {
    return f();
  } catch (const std::exception& e) {
    return Status::error(std::string(call) + " threw an exception: " + e.what());
  } catch (...) {
    return Status::error(std::string(call) + " threw a non-standard exception");
  }
}

struct ValidationGuard final : ValidationPlugin {
  ValidationPlugin* inner = nullptr;
  Status validate(const Job& j, const Job* o, const PluginArgs& a, ValidationResult& r) override {
    return barrier("Validate", [&] { return inner->validate(j, o, a, r); });
  }
};
struct MLPolicyGuard final : MLPolicyPlugin {
  MLPolicyPlugin* inner = nullptr;
  Status enforceMLPolicy(RuntimeInfo& i, const PluginArgs& a) override {
    return barrier("EnforceMLPolicy", [&] { return inner->enforceMLPolicy(i, a); });
  }
};
struct PodGroupPolicyGuard final : PodGroupPolicyPlugin {
  PodGroupPolicyPlugin* inner = nullptr;
  Status enforcePodGroupPolicy(RuntimeInfo& i, const PluginArgs& a) override {
    return barrier("EnforcePodGroupPolicy", [&] { return inner->enforcePodGroupPolicy(i, a); });
  }
};
struct PodNetworkGuard final : PodNetworkPlugin {
  PodNetworkPlugin* inner = nullptr;
  Status identifyPodNetwork(RuntimeInfo& i, const PluginArgs& a) override {
    return barrier("IdentifyPodNetwork", [&] { return inner->identifyPodNetwork(i, a); });
  }
};
struct ComponentBuildGuard final : ComponentBuildPlugin {
  ComponentBuildPlugin* inner = nullptr;
  Status build(const RuntimeInfo& i, const PluginArgs& a, Components& out) override {
    return barrier("Build", [&] { return inner->build(i, a, out); });
  }
};
struct StatusGuard final : StatusPlugin {
  StatusPlugin* inner = nullptr;
  Status updateStatus(const Job& j, JobStatus& s) override {
    return barrier("UpdateStatus", [&] { return inner->updateStatus(j, s); });
  }
};
struct JobHooksGuard final : JobHooksPlugin {
  JobHooksPlugin* inner = nullptr;
  Status onJobAdd(JobContext& c) override {
    return barrier("OnJobAdd", [&] { return inner->onJobAdd(c); });
  }
  Status onPodCreate(JobContext& c, Pod& p) override {
    return barrier("OnPodCreate", [&] { return inner->onPodCreate(c, p); });
  }
  Status onJobUpdate(JobContext& c) override {
    return barrier("OnJobUpdate", [&] { return inner->onJobUpdate(c); });
  }
  Status onJobDelete(JobContext& c) override {
    return barrier("OnJobDelete", [&] { return inner->onJobDelete(c); });
  }
};

template <class I, class G, class T>
I* wire(G& guard, T& impl) {
  if constexpr (std::is_base_of_v<I, T>) {
    guard.inner = &impl;
    return &guard;
  } else {
    return nullptr;
  }
}

/// The instance JOBHOST_PLUGIN creates: the author's object plus one guard per point it implements.
template <class T>
class Instance final : public PluginInstance {
 public:
  Instance() {
    validation_ = wire<ValidationPlugin>(gValidation_, impl_);
    mlPolicy_ = wire<MLPolicyPlugin>(gMLPolicy_, impl_);
    podGroupPolicy_ = wire<PodGroupPolicyPlugin>(gPodGroupPolicy_, impl_);
    podNetwork_ = wire<PodNetworkPlugin>(gPodNetwork_, impl_);
    componentBuild_ = wire<ComponentBuildPlugin>(gComponentBuild_, impl_);
    status_ = wire<StatusPlugin>(gStatus_, impl_);
    jobHooks_ = wire<JobHooksPlugin>(gJobHooks_, impl_);
  }
  ~Instance() = default;
  T& impl() { return impl_; }

  ValidationPlugin* validation() noexcept override { return validation_; }
  MLPolicyPlugin* mlPolicy() noexcept override { return mlPolicy_; }
  PodGroupPolicyPlugin* podGroupPolicy() noexcept override { return podGroupPolicy_; }
  PodNetworkPlugin* podNetwork() noexcept override { return podNetwork_; }
  ComponentBuildPlugin* componentBuild() noexcept override { return componentBuild_; }
  StatusPlugin* status() noexcept override { return status_; }
  JobHooksPlugin* jobHooks() noexcept override { return jobHooks_; }

 private:
  T impl_;
  ValidationGuard gValidation_;
  MLPolicyGuard gMLPolicy_;
  PodGroupPolicyGuard gPodGroupPolicy_;
  PodNetworkGuard gPodNetwork_;
  ComponentBuildGuard gComponentBuild_;
  StatusGuard gStatus_;
  JobHooksGuard gJobHooks_;
  ValidationPlugin* validation_;
  MLPolicyPlugin* mlPolicy_;
  PodGroupPolicyPlugin* podGroupPolicy_;
  PodNetworkPlugin* podNetwork_;
  ComponentBuildPlugin* componentBuild_;
  StatusPlugin* status_;
  JobHooksPlugin* jobHooks_;
};

template <class T>
constexpr uint32_t capabilitiesOf() {
  uint32_t c = 0;
  if (std::is_base_of_v<ValidationPlugin, T>) c |= kValidation;
  if (std::is_base_of_v<MLPolicyPlugin, T>) c |= kMLPolicy;
  if (std::is_base_of_v<PodGroupPolicyPlugin, T>) c |= kPodGroupPolicy;
  if (std::is_base_of_v<PodNetworkPlugin, T>) c |= kPodNetwork;
  if (std::is_base_of_v<ComponentBuildPlugin, T>) c |= kComponentBuild;
  if (std::is_base_of_v<StatusPlugin, T>) c |= kStatus;
  if (std::is_base_of_v<JobHooksPlugin, T>) c |= kJobHooks;
  return c;
}

inline void copyError(const std::string& text, char* out, size_t size) {
  if (out == nullptr || size == 0) return;
  const size_t n = text.size() < size - 1 ? text.size() : size - 1;
  std::memcpy(out, text.data(), n);
  out[n] = '\0';
}

/// create() for plugin class T: constructs it, then calls T::configure(const PluginSettings&) when
/// T has one (a failure there means the config's default args were rejected). A throw is reported
/// naming the step that threw ("the constructor threw: ..." or "configure() threw: ...").
template <class T>
int create(const jobhost_plugin_settings* s, void** instance, char* error, size_t size) noexcept {
  const char* step = "the constructor";
  try {
    PluginSettings settings;
    if (s != nullptr) {
      if (s->configured_name != nullptr) settings.configuredName = s->configured_name;
      for (size_t i = 0; i < s->default_args_count; ++i)
        settings.defaultArgs.emplace_back(s->default_args[i]);
    }
    auto made = std::make_unique<Instance<T>>();
    if constexpr (requires(T & t) { t.configure(settings); }) {
      step = "configure()";
      Status st = made->impl().configure(settings);
      if (!st) {
        copyError(st.message(), error, size);
        return JOBHOST_CREATE_ARGS_REJECTED;
      }
    }
    *instance = static_cast<PluginInstance*>(made.release());
    return JOBHOST_CREATE_OK;
  } catch (const std::exception& e) {
    copyError(std::string(step) + " threw: " + e.what(), error, size);
    return JOBHOST_CREATE_THREW;
  } catch (...) {
    copyError(std::string(step) + " threw a non-standard exception", error, size);
    return JOBHOST_CREATE_THREW;
  }
}

template <class T>
void destroy(void* instance) noexcept {
  delete static_cast<Instance<T>*>(static_cast<PluginInstance*>(instance));
}

}  // namespace detail
}  // namespace jobhost

/// The descriptor JOBHOST_PLUGIN builds for CLASS (used by both export forms below).
#define JOBHOST_PLUGIN_DESCRIPTOR_BODY(CLASS, NAME, VERSION)                                      \
  static_assert(std::is_default_constructible_v<CLASS>,                                          \
                "JOBHOST_PLUGIN: the plugin class must be default-constructible; take settings in " \
                "Status configure(const jobhost::PluginSettings&)");                              \
  static_assert(::jobhost::detail::capabilitiesOf<CLASS>() != 0,                                 \
                "JOBHOST_PLUGIN: the plugin class implements no extension point; derive it from " \
                "ValidationPlugin, MLPolicyPlugin, PodGroupPolicyPlugin, PodNetworkPlugin, "      \
                "ComponentBuildPlugin, StatusPlugin or JobHooksPlugin");                          \
  static const jobhost_plugin_descriptor descriptor = {                                          \
      sizeof(jobhost_plugin_descriptor),                                                         \
      JOBHOST_ABI_MAJOR,                                                                         \
      JOBHOST_ABI_MINOR,                                                                         \
      JOBHOST_BUILD_KEY,                                                                         \
      JOBHOST_SDK_VERSION_STRING,                                                                \
      NAME,                                                                                      \
      VERSION,                                                                                   \
      ::jobhost::detail::capabilitiesOf<CLASS>(),                                                \
      &::jobhost::detail::create<CLASS>,                                                         \
      &::jobhost::detail::destroy<CLASS>};                                                       \
  return &descriptor;

/// Exports plugin class CLASS (default-constructible; implements one or more extension-point
/// interfaces; optionally `Status configure(const jobhost::PluginSettings&)`) under NAME/VERSION.
/// Write it once, at namespace scope, in one source file of the plugin.
///
/// Shared object (the default): exports the Boost.DLL alias JOBHOST_ENTRY_NAME.
/// In-process (static) build: when JOBHOST_PLUGIN_STATIC_ENTRY is defined (jobhost_add_plugin's
/// <target>_static library defines it as jobhost_plugin_entry_<name>), it instead defines
/// `extern "C" const jobhost_plugin_descriptor* <JOBHOST_PLUGIN_STATIC_ENTRY>()`, a uniquely
/// named entry that many plugins can share one binary with; declare it where it is used with
/// JOBHOST_DECLARE_STATIC_PLUGIN(<name>) (descriptor.h) and hand it to the host's adoptPlugin.
#ifdef JOBHOST_PLUGIN_STATIC_ENTRY
#define JOBHOST_PLUGIN(CLASS, NAME, VERSION)                                                      \
  extern "C" const jobhost_plugin_descriptor* JOBHOST_PLUGIN_STATIC_ENTRY() {                    \
    JOBHOST_PLUGIN_DESCRIPTOR_BODY(CLASS, NAME, VERSION)                                         \
  }
#else
#define JOBHOST_PLUGIN(CLASS, NAME, VERSION)                                                      \
  namespace jobhost_plugin_export {                                                              \
  const jobhost_plugin_descriptor* jobhost_plugin_entry_fn() {                                   \
    JOBHOST_PLUGIN_DESCRIPTOR_BODY(CLASS, NAME, VERSION)                                         \
  }                                                                                              \
  }                                                                                              \
  BOOST_DLL_ALIAS(jobhost_plugin_export::jobhost_plugin_entry_fn, jobhost_plugin_entry)
#endif
