// The coscheduling plugin (scheduler-plugins' gang semantics on Volcano's PodGroup): the pod label
// scheduling.x-k8s.io/pod-group and scheduleTimeoutSeconds. Points: Validation, PodGroupPolicy, JobHooks.
#include <jobhost/jobhost.h>

#include <string>

#include "coscheduling_options.h"

namespace {
using namespace jobhost;

constexpr const char* kName = "coscheduling";
// Map keys as strings made once: a key given as const char* would be a new std::string per call.
const volcano::Marker kMarker{kName};
const std::string kPodGroupLabel = "scheduling.x-k8s.io/pod-group";

class CoschedulingPlugin final : public ValidationPlugin, public PodGroupPolicyPlugin, public JobHooksPlugin {
 public:
  Status configure(const PluginSettings& settings) {
    coscheduling::CoschedulingOptions options;
    return coscheduling::parseCoschedulingOptions(settings.defaultArgs, options);
  }

  Status validate(const Job&, const Job*, const PluginArgs& args, ValidationResult& out) override {
    coscheduling::CoschedulingOptions options;
    if (Status st = coscheduling::parseCoschedulingOptions(args, options); !st)
      out.warnings.push_back(ignoredFlagWarning("spec.plugins.coscheduling", st));
    return Status::ok();
  }

  Status enforcePodGroupPolicy(RuntimeInfo& info, const PluginArgs& args) override {
    coscheduling::CoschedulingOptions options;
    static_cast<void>(coscheduling::parseCoschedulingOptions(args, options));  // reported at admission
    info.podGroup.spec.scheduleTimeoutSeconds = options.scheduleTimeoutSeconds;
    info.scheduler.podLabels[kPodGroupLabel] = info.job.metadata.name;
    return Status::ok();
  }

  Status onJobAdd(JobContext& ctx) override {
    kMarker.set(ctx);
    return Status::ok();
  }

  // The host also applies info.scheduler.podLabels; setting the label here keeps pods labelled
  // when hooks run without the pipeline's pod sets.
  Status onPodCreate(JobContext& ctx, Pod& pod) override {
    pod.metadata.labels[kPodGroupLabel] = ctx.job().metadata.name;
    return Status::ok();
  }

  Status onJobUpdate(JobContext&) override { return Status::ok(); }

  Status onJobDelete(JobContext& ctx) override {
    kMarker.clear(ctx);
    return Status::ok();
  }
};

}  // namespace

JOBHOST_PLUGIN(CoschedulingPlugin, "coscheduling", "0.1.0")
