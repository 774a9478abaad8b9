// Small plugin classes the harness tests load in-process with inProcess<Class, "name">(): a probe
// that implements every extension point (warnings, hook order), and sloppy plugins that each break
// one rule of the conformance suite so the suite's failure messages can be checked.
#pragma once

#include <jobhost/jobhost.h>

#include <stdexcept>
#include <string>

namespace jobhost::testing::probes {

/// Every extension point. Its only flag `--warn=<text>` (config args or spec.plugins.probe) adds an
/// admission warning; OnPodCreate sets PROBE=<pod index> on each container through ctx.setEnv.
class Probe final : public ValidationPlugin,
                    public MLPolicyPlugin,
                    public PodGroupPolicyPlugin,
                    public PodNetworkPlugin,
                    public ComponentBuildPlugin,
                    public StatusPlugin,
                    public JobHooksPlugin {
 public:
  Status configure(const PluginSettings& s) {
    std::string warn;
    return parse(s.defaultArgs, warn);
  }
  Status validate(const Job&, const Job*, const PluginArgs& args, ValidationResult& out) override {
    std::string warn;
    if (Status st = parse(args, warn); !st) out.errors.push_back({"spec.plugins.probe", st.message()});
    if (!warn.empty()) out.warnings.push_back("probe: " + warn);
    return Status::ok();
  }
  Status enforceMLPolicy(RuntimeInfo&, const PluginArgs&) override { return Status::ok(); }
  Status enforcePodGroupPolicy(RuntimeInfo&, const PluginArgs&) override { return Status::ok(); }
  Status identifyPodNetwork(RuntimeInfo&, const PluginArgs&) override { return Status::ok(); }
  Status build(const RuntimeInfo&, const PluginArgs&, Components&) override { return Status::ok(); }
  Status updateStatus(const Job&, JobStatus&) override { return Status::ok(); }
  Status onJobAdd(JobContext& ctx) override {
    volcano::setMarker(ctx, "probe");
    return Status::ok();
  }
  Status onPodCreate(JobContext& ctx, Pod& pod) override {
    for (auto& c : pod.spec.containers) ctx.setEnv(c, EnvVar::literal("PROBE", volcano::podIndex(pod.metadata.name)));
    return Status::ok();
  }
  Status onJobUpdate(JobContext&) override { return Status::ok(); }
  Status onJobDelete(JobContext& ctx) override {
    volcano::clearMarker(ctx, "probe");
    return Status::ok();
  }

 private:
  static Status parse(const PluginArgs& args, std::string& warn) {
    FlagSet flags("plugin probe");
    flags.addString("warn", &warn);
    return flags.parse(args);
  }
};

/// What a sloppy plugin gets wrong; Correct gets nothing wrong.
enum class Flaw { Correct, NoValidation, LenientFlags, StrictFlags, AddNotIdempotent, PodNotIdempotent, NoUndo };

/// A JobHooks plugin named "sloppy" with one flaw. Correct: rejects unknown flags, keeps the marker,
/// creates ConfigMap <job>-sloppy in OnJobAdd and deletes it in OnJobDelete, upserts SLOPPY=1.
template <Flaw F>
class SloppyHooks : public JobHooksPlugin {
 public:
  Status onJobAdd(JobContext& ctx) override {
    if constexpr (F == Flaw::AddNotIdempotent) {
      auto& n = ctx.controlledResources()["sloppy-adds"];
      n = std::to_string(n.empty() ? 1 : std::stoi(n) + 1);
    }
    if (volcano::hasMarker(ctx, "sloppy")) return Status::ok();
    Components objects;
    ConfigMap cm;
    cm.metadata.name = ctx.job().metadata.name + "-sloppy";
    cm.metadata.namespace_ = ctx.job().metadata.namespace_;
    cm.data["k"] = "v";
    objects.configMaps.push_back(cm);
    if (Status st = ctx.resources().apply(objects); !st) return st;
    volcano::setMarker(ctx, "sloppy");
    return Status::ok();
  }
  Status onPodCreate(JobContext& ctx, Pod& pod) override {
    for (auto& c : pod.spec.containers) {
      if constexpr (F == Flaw::PodNotIdempotent)
        c.env.push_back(EnvVar::literal("SLOPPY", "1"));
      else
        ctx.setEnv(c, EnvVar::literal("SLOPPY", "1"));
    }
    return Status::ok();
  }
  Status onJobUpdate(JobContext&) override { return Status::ok(); }
  Status onJobDelete(JobContext& ctx) override {
    if constexpr (F == Flaw::NoUndo) return Status::ok();
    if (!volcano::hasMarker(ctx, "sloppy")) return Status::ok();
    if (Status st = ctx.resources().remove(ObjectKind::ConfigMap, ctx.job().metadata.name + "-sloppy"); !st)
      return st;
    volcano::clearMarker(ctx, "sloppy");
    return Status::ok();
  }
};

template <Flaw F>
class Sloppy final : public ValidationPlugin, public SloppyHooks<F> {
 public:
  Status validate(const Job&, const Job*, const PluginArgs& args, ValidationResult& out) override {
    FlagSet flags("plugin sloppy");
    Status st = flags.parse(args);
    if (!st && F == Flaw::StrictFlags) out.errors.push_back({"spec.plugins.sloppy", st.message()});
    if (!st && F != Flaw::LenientFlags && F != Flaw::StrictFlags)
      out.warnings.push_back(ignoredFlagWarning("spec.plugins.sloppy", st));
    return Status::ok();
  }
};

/// No Validation at all: its flags go unchecked.
template <>
class Sloppy<Flaw::NoValidation> final : public SloppyHooks<Flaw::NoValidation> {};

/// A plugin that bypasses JOBHOST_PLUGIN's barrier: a hand-written descriptor and PluginInstance
/// whose hooks use the JobContext unguarded, so an exception from a host service escapes them.
class Unguarded final : public JobHooksPlugin {
 public:
  Status onJobAdd(JobContext& ctx) override { return touch(ctx); }
  Status onPodCreate(JobContext& ctx, Pod&) override { return touch(ctx); }
  Status onJobUpdate(JobContext& ctx) override { return touch(ctx); }
  Status onJobDelete(JobContext& ctx) override { return touch(ctx); }

 private:
  static Status touch(JobContext& ctx) {
    (void)ctx.job();
    return Status::ok();
  }
};

class UnguardedInstance final : public PluginInstance {
 public:
  ValidationPlugin* validation() noexcept override { return nullptr; }
  MLPolicyPlugin* mlPolicy() noexcept override { return nullptr; }
  PodGroupPolicyPlugin* podGroupPolicy() noexcept override { return nullptr; }
  PodNetworkPlugin* podNetwork() noexcept override { return nullptr; }
  ComponentBuildPlugin* componentBuild() noexcept override { return nullptr; }
  StatusPlugin* status() noexcept override { return nullptr; }
  JobHooksPlugin* jobHooks() noexcept override { return &hooks_; }

 private:
  Unguarded hooks_;
};

inline const jobhost_plugin_descriptor* unguardedEntry() {
  static const jobhost_plugin_descriptor d = {
      sizeof(jobhost_plugin_descriptor), JOBHOST_ABI_MAJOR, JOBHOST_ABI_MINOR, JOBHOST_BUILD_KEY,
      JOBHOST_SDK_VERSION_STRING, "unguarded", "0.0.1", kJobHooks,
      [](const jobhost_plugin_settings*, void** instance, char*, size_t) {
        *instance = static_cast<PluginInstance*>(new UnguardedInstance());
        return static_cast<int>(JOBHOST_CREATE_OK);
      },
      [](void* instance) { delete static_cast<UnguardedInstance*>(static_cast<PluginInstance*>(instance)); }};
  return &d;
}

}  // namespace jobhost::testing::probes
