// Pipeline benchmark: the shipped plugins loaded from their .so files vs the same plugins linked
// into this binary (adoptPlugin), same job and pipeline; also with the plugin call deadline off.
#include <benchmark/benchmark.h>

#include <sstream>

#include "host/admission/mutation.h"
#include "host/config/config.h"
#include "host/plugin/job_render.h"
#include "host/plugin/plugin_job_plugins.h"
#include "host/plugin/registry.h"
#include "host/spec/job_loader.h"

JOBHOST_DECLARE_STATIC_PLUGIN(env);
JOBHOST_DECLARE_STATIC_PLUGIN(svc);
JOBHOST_DECLARE_STATIC_PLUGIN(ssh);
JOBHOST_DECLARE_STATIC_PLUGIN(torch);
JOBHOST_DECLARE_STATIC_PLUGIN(mpi);
JOBHOST_DECLARE_STATIC_PLUGIN(tensorflow);
JOBHOST_DECLARE_STATIC_PLUGIN(ray);
JOBHOST_DECLARE_STATIC_PLUGIN(hcclrank);
JOBHOST_DECLARE_STATIC_PLUGIN(coscheduling);

namespace jobhost {
namespace {

constexpr int kWorkers = 64;

/// 1 master + 64 workers with pytorch, env, svc and coscheduling active (ssh's RSA key generation
/// would swamp the plugin-call cost this measures; the other shipped plugins are loaded but idle).
Job benchJob() {
  std::ostringstream y;
  y << "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata: {name: bench, uid: u-1}\nspec:\n"
       "  minAvailable: " << kWorkers + 1 << "\n"
       "  plugins: {pytorch: [--master=master, --worker=worker], env: [], svc: [], coscheduling: []}\n"
       "  tasks:\n";
  for (auto [name, n] : {std::pair{"master", 1}, std::pair{"worker", kWorkers}})
    y << "  - name: " << name << "\n    replicas: " << n << "\n    template:\n      spec:\n"
         "        containers:\n        - name: trainer\n          image: pytorch:2.4\n"
         "          resources: {requests: {cpu: '4', memory: 16Gi}}\n";
  Job job = (*parseJobs(y.str(), "bench.yaml"))[0].job;
  mutateJob(job, MutationConfig{});
  return job;
}

std::shared_ptr<Registry> staticRegistry(const HostConfig& config) {
  const std::map<std::string, jobhost_plugin_entry_fn> entries = {
      {"env", &jobhost_plugin_entry_env},     {"svc", &jobhost_plugin_entry_svc}, {"ssh", &jobhost_plugin_entry_ssh},
      {"torch", &jobhost_plugin_entry_torch}, {"mpi", &jobhost_plugin_entry_mpi},
      {"tensorflow", &jobhost_plugin_entry_tensorflow}, {"ray", &jobhost_plugin_entry_ray},
      {"hcclrank", &jobhost_plugin_entry_hcclrank}, {"coscheduling", &jobhost_plugin_entry_coscheduling}};
  std::vector<RegisteredPlugin> plugins;
  for (const auto& entry : config.plugins) {
    RegisteredPlugin r;
    r.entry = entry;
    r.names.push_back(entry.name);
    r.names.insert(r.names.end(), entry.aliases.begin(), entry.aliases.end());
    r.loaded = *adoptPlugin(entries.at(entry.name), LoadRequest{entry.name, "", "", {}, entry.args});
    plugins.push_back(std::move(r));
  }
  return *Registry::fromLoaded(std::move(plugins), config);
}

// Arg 0: 0 = plugins from .so, 1 = linked in. Arg 1: 1 = pluginCallTimeout 30s (default), 0 = off.
void BM_PipelineJob(benchmark::State& state) {
  HostConfig config = *defaultHostConfig();
  if (state.range(1) == 0) {
    config.pluginCallTimeout = Duration{0};
    for (auto& p : config.plugins) p.callTimeout = Duration{0};
  }
  auto registry = state.range(0) == 1 ? staticRegistry(config) : *Registry::load(config);
  const Job job = benchJob();
  for (auto _ : state) {
    PluginJobPlugins plugins(registry, config.priorityClasses);
    auto rendered = renderJob(plugins, job);
    if (!rendered || rendered->pods.size() != kWorkers + 1) state.SkipWithError("render failed");
    benchmark::DoNotOptimize(rendered);
  }
  state.SetItemsProcessed(state.iterations());  // jobs
  state.counters["pods"] = kWorkers + 1;
}
BENCHMARK(BM_PipelineJob)
    ->ArgsProduct({{0, 1}, {1, 0}})
    ->ArgNames({"static", "deadline"})
    ->UseRealTime()  // with a deadline the work runs on the guard thread, not this one
    ->Repetitions(5)
    ->ReportAggregatesOnly(true)
    ->Unit(benchmark::kMicrosecond)
    ->MinTime(2.0);

}  // namespace
}  // namespace jobhost

BENCHMARK_MAIN();
