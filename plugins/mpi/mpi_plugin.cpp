// The mpi plugin (Volcano's `mpi` + Trainer's OpenMPI hostfile): MPI_HOST, ssh port, OMPI_MCA_* env,
// the `<job>-mpi-hostfile` ConfigMap. Points: Validation, MLPolicy, ComponentBuild, JobHooks.
#include <jobhost/jobhost.h>

#include "mpi_hostfile.h"
#include "mpi_job_data.h"
#include "mpi_options.h"
#include "mpi_pod.h"
#include "mpi_validation.h"

namespace {
using namespace jobhost;

constexpr const char* kName = "mpi";
const volcano::Marker kMarker{kName};

// Volcano's GetTaskKey: the pod's task-spec annotation, or "default".
std::string taskKey(const Pod& pod) {
  const auto it = pod.metadata.annotations.find(std::string(keys::TaskSpec));
  return it == pod.metadata.annotations.end() || it->second.empty() ? std::string(keys::DefaultTaskSpec)
                                                                      : it->second;
}

// Create when missing, update only when the data differs (compared where it is stored).
Status createOrUpdate(ResourceClient& client, const mpi::MpiJobData& data) {
  if (data.hostfile.configMaps.empty()) return Status::ok();  // no master or no worker task
  return volcano::createOrUpdateConfigMap(client, data.hostfile, data.hostfileVerified);
}

class MpiPlugin final : public ValidationPlugin,
                        public MLPolicyPlugin,
                        public ComponentBuildPlugin,
                        public JobHooksPlugin {
 public:
  Status configure(const PluginSettings& settings) {
    mpi::MpiOptions options;
    return mpi::parseMpiOptions(settings.defaultArgs, options);
  }

  Status validate(const Job& job, const Job*, const PluginArgs& args, ValidationResult& out) override {
    mpi::validateMpiJob(job, args, out);
    return Status::ok();
  }

  // Everything the plugin puts on a pod is the same for every pod of a task, so the pipeline's pod
  // sets already carry it; onPodCreate re-applies it idempotently.
  Status enforceMLPolicy(RuntimeInfo& info, const PluginArgs& args) override {
    const mpi::MpiOptions options = mpi::effectiveOptions(args);
    for (auto& set : info.podSets)
      mpi::decorateMpiPod(info.job, options, set.name, {set.initContainers, set.containers, set.volumes},
                          [&](Container& c, const EnvVar& v) { info.setEnv(set, c, v); });
    return Status::ok();
  }

  Status build(const RuntimeInfo& info, const PluginArgs& args, Components& out) override {
    if (auto cm = mpi::hostfileConfigMap(info.job, mpi::effectiveOptions(args))) out.configMaps.push_back(std::move(*cm));
    return Status::ok();
  }

  Status onJobAdd(JobContext& ctx) override {
    if (kMarker.isSet(ctx)) return Status::ok();
    if (Status st = createOrUpdate(ctx.resources(), *mpi::mpiJobData(ctx)); !st) return st;
    kMarker.set(ctx);
    return Status::ok();
  }

  Status onPodCreate(JobContext& ctx, Pod& pod) override {
    mpi::decorateMpiPod(ctx.job(), mpi::effectiveOptions(ctx.args()), taskKey(pod),
                        {pod.spec.initContainers, pod.spec.containers, pod.spec.volumes},
                        [&](Container& c, const EnvVar& v) { ctx.setEnv(c, v); });
    return Status::ok();
  }

  // While the plugin owns the hostfile (marker set), it follows worker scaling like svc's hosts.
  Status onJobUpdate(JobContext& ctx) override {
    if (!kMarker.isSet(ctx)) return Status::ok();
    return createOrUpdate(ctx.resources(), *mpi::mpiJobData(ctx));
  }

  Status onJobDelete(JobContext& ctx) override {
    if (!kMarker.isSet(ctx)) return Status::ok();
    if (Status st = ctx.resources().remove(ObjectKind::ConfigMap, mpi::hostfileConfigMapName(ctx.job())); !st)
      return st;
    kMarker.clear(ctx);
    return Status::ok();
  }
};

}  // namespace

JOBHOST_PLUGIN(MpiPlugin, "mpi", "0.1.0")
