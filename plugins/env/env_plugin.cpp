// The env plugin (Volcano's `env`): VK_TASK_INDEX and VC_TASK_INDEX on every container and init
// container of every pod, plus the plugin-env marker. Built only against the public SDK.
#include <jobhost/jobhost.h>

#include <algorithm>
#include <string>
#include <vector>

namespace {
using namespace jobhost;

constexpr const char* kName = "env";
const volcano::Marker kMarker{kName};
const std::string kVkTaskIndex = "VK_TASK_INDEX";
const std::string kVcTaskIndex = "VC_TASK_INDEX";

// Volcano appends the two variables, so they end the env in this order even when the template (or
// an earlier call) already set them; upserting alone would leave them where they were.
void moveToEnd(std::vector<EnvVar>& env) {
  auto first = [&](const std::string& name) {
    return std::find_if(env.begin(), env.end(), [&](const EnvVar& e) { return e.name == name; });
  };
  if (env.size() >= 2 && first(kVkTaskIndex) == env.end() - 2 && first(kVcTaskIndex) == env.end() - 1)
    return;  // just appended: already in place
  for (const std::string* name : {&kVkTaskIndex, &kVcTaskIndex})
    if (auto it = first(*name); it != env.end()) std::rotate(it, it + 1, env.end());
}

// The plugin takes no flags; Go `flag` rules still apply, so any flag is an unknown flag.
Status parseArgs(const PluginArgs& args) {
  FlagSet flags("plugin env");
  return flags.parse(args);
}

class EnvPlugin final : public ValidationPlugin, public JobHooksPlugin {
 public:
  Status configure(const PluginSettings& settings) { return parseArgs(settings.defaultArgs); }

  Status validate(const Job&, const Job*, const PluginArgs& args, ValidationResult& out) override {
    if (Status st = parseArgs(args); !st) out.warnings.push_back(ignoredFlagWarning("spec.plugins.env", st));
    return Status::ok();
  }

  Status onJobAdd(JobContext& ctx) override {
    kMarker.set(ctx);
    return Status::ok();
  }

  Status onPodCreate(JobContext& ctx, Pod& pod) override {
    const std::string index = volcano::podIndex(pod.metadata.name);
    for (auto* list : {&pod.spec.containers, &pod.spec.initContainers})
      for (auto& c : *list) {
        ctx.setEnv(c, EnvVar::literal(kVkTaskIndex, index));
        ctx.setEnv(c, EnvVar::literal(kVcTaskIndex, index));
        moveToEnd(c.env);
      }
    return Status::ok();
  }

  Status onJobUpdate(JobContext&) override { return Status::ok(); }

  Status onJobDelete(JobContext& ctx) override {
    kMarker.clear(ctx);
    return Status::ok();
  }
};

}  // namespace

JOBHOST_PLUGIN(EnvPlugin, "env", "0.1.0")
