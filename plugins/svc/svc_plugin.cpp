// The svc plugin (Volcano's `svc`): pod hostnames and hosts env, the `<job>-svc` ConfigMap, the
// headless Service and the NetworkPolicy. Points: Validation, PodNetwork, ComponentBuild, JobHooks.
#include <jobhost/jobhost.h>

#include <algorithm>

#include "svc_hosts.h"
#include "svc_job_data.h"
#include "svc_objects.h"
#include "svc_options.h"
#include "svc_pod.h"

namespace {
using namespace jobhost;

constexpr const char* kName = "svc";
const volcano::Marker kMarker{kName};

// Volcano's CreateOrUpdateConfigMap: create when missing, update only when the data differs.
Status createOrUpdate(ResourceClient& client, const svc::SvcJobData& data) {
  return volcano::createOrUpdateConfigMap(client, data.hostsConfigMap, data.hostsVerified);
}

// Creates the object `make()` builds (into a Components) unless one of that kind and name exists.
template <class Make>
Status createIfAbsent(ResourceClient& client, ObjectKind kind, const std::string& name, Make&& make) {
  if (client.exists(kind, name)) return Status::ok();
  Components object;
  make(object);
  return client.apply(object);
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

  Status validate(const Job& job, const Job*, const PluginArgs& args, ValidationResult& out) override {
    svc::SvcOptions options;
    if (Status st = svc::parseSvcOptions(args, options); !st)
      out.warnings.push_back(ignoredFlagWarning("spec.plugins.svc", st));
    svc::warnLongHostnames(job, out);
    volcano::warnReplacedMounts(job, "svc", svc::kHostsMountPath, out);
    return Status::ok();
  }

  Status identifyPodNetwork(RuntimeInfo& info, const PluginArgs&) override {
    for (auto& set : info.podSets) {
      const TaskSpec* task = info.job.findTask(set.name);
      if (task == nullptr) continue;
      set.subdomain = svc::subdomainOf(info.job, *task);
      set.endpoints.clear();
      set.endpoints.reserve(static_cast<size_t>(std::max(set.count, 0)));
      for (int32_t i = 0; i < set.count; ++i) set.endpoints.push_back(svc::podHost(info.job, *task, i));
    }
    return Status::ok();
  }

  Status build(const RuntimeInfo& info, const PluginArgs& args, Components& out) override {
    svc::SvcOptions options;
    static_cast<void>(svc::parseSvcOptions(args, options));  // a bad flag was reported at admission
    svc::appendSvcComponents(info.job, options, out);
    return Status::ok();
  }

  // Volcano builds the objects from the job as it is now (GenerateHosts(job)): ComponentBuild's
  // output was made when the pipeline ran and misses a later scaling of the job.
  Status onJobAdd(JobContext& ctx) override {
    if (kMarker.isSet(ctx)) return Status::ok();
    const auto data = svc::svcJobData(ctx);
    ResourceClient& client = ctx.resources();
    const Job& job = ctx.job();
    if (Status st = createOrUpdate(client, *data); !st) return st;
    if (Status st = createIfAbsent(client, ObjectKind::Service, job.metadata.name,
                                   [&](Components& c) { c.services.push_back(svc::headlessService(job, data->options)); });
        !st)
      return st;
    if (!data->options.disableNetworkPolicy)
      if (Status st = createIfAbsent(client, ObjectKind::NetworkPolicy, job.metadata.name,
                                     [&](Components& c) { c.networkPolicies.push_back(svc::jobNetworkPolicy(job)); });
          !st)
        return st;
    kMarker.set(ctx);
    return Status::ok();
  }

  Status onPodCreate(JobContext& ctx, Pod& pod) override {
    svc::decorateSvcPod(ctx, *svc::svcJobData(ctx), pod);
    return Status::ok();
  }

  Status onJobUpdate(JobContext& ctx) override { return createOrUpdate(ctx.resources(), *svc::svcJobData(ctx)); }

  Status onJobDelete(JobContext& ctx) override {
    if (!kMarker.isSet(ctx)) return Status::ok();
    const auto data = svc::svcJobData(ctx);
    ResourceClient& client = ctx.resources();
    if (Status st = client.remove(ObjectKind::ConfigMap, data->configMap().metadata.name); !st) return st;
    if (Status st = client.remove(ObjectKind::Service, ctx.job().metadata.name); !st) return st;
    kMarker.clear(ctx);
    if (!data->options.disableNetworkPolicy) return client.remove(ObjectKind::NetworkPolicy, ctx.job().metadata.name);
    return Status::ok();
  }
};

}  // namespace

JOBHOST_PLUGIN(SvcPlugin, "svc", "0.1.0")
