// The svc plugin (Volcano's `svc`): pod hostnames and hosts env, the `<job>-svc` ConfigMap, the
// headless Service and the NetworkPolicy. Points: Validation, PodNetwork, ComponentBuild, JobHooks.
#include <jobhost/jobhost.h>

#include "svc_hosts.h"
#include "svc_objects.h"
#include "svc_options.h"
#include "svc_pod.h"

namespace {
using namespace jobhost;

constexpr const char* kName = "svc";
constexpr const char* kMarker = "plugin-svc";

// Outside Validation, use whatever parsed, like Volcano: admission already reported a bad flag.
svc::SvcOptions effectiveOptions(const PluginArgs& args) {
  svc::SvcOptions options;
  static_cast<void>(svc::parseSvcOptions(args, options));
  return options;
}

Components single(const ConfigMap& cm) {
  Components c;
  c.configMaps.push_back(cm);
  return c;
}

// Volcano's CreateOrUpdateConfigMap: create when missing, update only when the data differs.
Status createOrUpdate(ResourceClient& client, const ConfigMap& cm) {
  const auto existing = client.getConfigMap(cm.metadata.name);
  if (existing && existing->data == cm.data) return Status::ok();
  return client.apply(single(cm));
}

class SvcPlugin final : public ValidationPlugin,
                        public PodNetworkPlugin,
                        public ComponentBuildPlugin,
                        public JobHooksPlugin {
 public:
  Status configure(const PluginSettings& settings) {
    svc::SvcOptions options;
    return svc::parseSvcOptions(settings.defaultArgs, options);
  }

  Status validate(const Job&, const Job*, const PluginArgs& args, ValidationResult& out) override {
    svc::SvcOptions options;
    if (Status st = svc::parseSvcOptions(args, options); !st)
      out.errors.push_back({"spec.plugins.svc", st.message()});
    return Status::ok();
  }

  Status identifyPodNetwork(RuntimeInfo& info, const PluginArgs&) override {
    for (auto& set : info.podSets) {
      const TaskSpec* task = info.job.findTask(set.name);
      if (task == nullptr) continue;
      set.subdomain = svc::subdomainOf(info.job, *task);
      set.endpoints.clear();
      for (int32_t i = 0; i < set.count; ++i) set.endpoints.push_back(svc::podHost(info.job, *task, i));
    }
    return Status::ok();
  }

  Status build(const RuntimeInfo& info, const PluginArgs& args, Components& out) override {
    const Components made = svc::svcComponents(info.job, effectiveOptions(args));
    out.configMaps.insert(out.configMaps.end(), made.configMaps.begin(), made.configMaps.end());
    out.services.insert(out.services.end(), made.services.begin(), made.services.end());
    out.networkPolicies.insert(out.networkPolicies.end(), made.networkPolicies.begin(),
                               made.networkPolicies.end());
    return Status::ok();
  }

  Status onJobAdd(JobContext& ctx) override {
    auto& marks = ctx.controlledResources();
    if (auto it = marks.find(kMarker); it != marks.end() && it->second == kName) return Status::ok();
    // Volcano builds them from the job as it is now (GenerateHosts(job)): ComponentBuild's output
    // was made when the pipeline ran and misses a later scaling of the job.
    const Components objects = svc::svcComponents(ctx.job(), effectiveOptions(ctx.args()));
    ResourceClient& client = ctx.resources();
    for (const auto& cm : objects.configMaps)
      if (Status st = createOrUpdate(client, cm); !st) return st;
    for (const auto& service : objects.services) {
      if (client.exists(ObjectKind::Service, service.metadata.name)) continue;
      Components c;
      c.services.push_back(service);
      if (Status st = client.apply(c); !st) return st;
    }
    for (const auto& policy : objects.networkPolicies) {
      if (client.exists(ObjectKind::NetworkPolicy, policy.metadata.name)) continue;
      Components c;
      c.networkPolicies.push_back(policy);
      if (Status st = client.apply(c); !st) return st;
    }
    marks[kMarker] = kName;
    return Status::ok();
  }

  Status onPodCreate(JobContext& ctx, Pod& pod) override {
    svc::decorateSvcPod(ctx, effectiveOptions(ctx.args()), pod);
    return Status::ok();
  }

  Status onJobUpdate(JobContext& ctx) override {
    return createOrUpdate(ctx.resources(), svc::hostsConfigMap(ctx.job()));
  }

  Status onJobDelete(JobContext& ctx) override {
    auto& marks = ctx.controlledResources();
    if (auto it = marks.find(kMarker); it == marks.end() || it->second != kName) return Status::ok();
    const Job& job = ctx.job();
    ResourceClient& client = ctx.resources();
    if (Status st = client.remove(ObjectKind::ConfigMap, svc::configMapName(job)); !st) return st;
    if (Status st = client.remove(ObjectKind::Service, job.metadata.name); !st) return st;
    marks.erase(kMarker);
    if (!effectiveOptions(ctx.args()).disableNetworkPolicy)
      return client.remove(ObjectKind::NetworkPolicy, job.metadata.name);
    return Status::ok();
  }
};

}  // namespace

JOBHOST_PLUGIN(SvcPlugin, "svc", "0.1.0")
