// Render benchmark: a 1-master + 256-worker pytorch job through admission, the pipeline, OnJobAdd
// and OnPodCreate with every shipped plugin loaded from its .so file (target < 20 ms).
#include <benchmark/benchmark.h>

#include <sstream>

#include "host/admission/mutation.h"
#include "host/config/config.h"
#include "host/plugin/job_render.h"
#include "host/plugin/plugin_validation.h"
#include "host/plugin/registry.h"
#include "host/spec/encode.h"
#include "host/spec/job_loader.h"
#include "host/spec/writers.h"

namespace jobhost {
namespace {

std::string pytorchJob(int workers, bool ssh) {
  std::ostringstream y;
  y << "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata: {name: bench, uid: u-1}\nspec:\n"
       "  minAvailable: " << workers + 1 << "\n"
       "  plugins: {pytorch: [--master=master, --worker=worker], env: [], svc: [], coscheduling: []"
    << (ssh ? ", ssh: []" : "") << "}\n"
       "  tasks:\n";
  for (auto [name, n] : {std::pair{"master", 1}, std::pair{"worker", workers}}) {
    y << "  - name: " << name << "\n    replicas: " << n << "\n    template:\n      spec:\n"
         "        containers:\n        - name: trainer\n          image: pytorch:2.4\n"
         "          command: [torchrun, train.py]\n          resources: {requests: {cpu: '4', memory: 16Gi}}\n";
  }
  return y.str();
}

struct Setup {
  HostConfig config;
  std::shared_ptr<Registry> registry;
  Job job;
  explicit Setup(bool ssh) {
    config = *defaultHostConfig();
    registry = *Registry::load(config);
    auto docs = parseJobs(pytorchJob(256, ssh), "bench.yaml");
    job = (*docs)[0].job;
    mutateJob(job, MutationConfig{});
  }
};

// Arg 0: pytorch + env + svc + coscheduling active. Arg 1: also ssh, whose RSA-2048 key
// generation dominates (it runs once per job build).
void BM_Render257PodPytorchJob(benchmark::State& state) {
  Setup setup(state.range(0) == 1);
  const AdmissionConfig admission = admissionConfig(setup.config, *setup.registry);
  for (auto _ : state) {
    auto result = validateJobCreate(setup.job, admission);
    PluginJobPlugins plugins(setup.registry, setup.config.priorityClasses);
    auto rendered = renderJob(plugins, setup.job);
    if (!result.allowed || !rendered || rendered->pods.size() != 257) state.SkipWithError("render failed");
    benchmark::DoNotOptimize(rendered);
  }
  state.counters["pods"] = 257;
}
BENCHMARK(BM_Render257PodPytorchJob)->Arg(0)->Arg(1)->ArgName("ssh")->Unit(benchmark::kMillisecond);

void BM_Render257PodPytorchJobToYaml(benchmark::State& state) {
  Setup setup(false);
  for (auto _ : state) {
    PluginJobPlugins plugins(setup.registry, setup.config.priorityClasses);
    auto rendered = renderJob(plugins, setup.job);
    rapidjson::Document d(rapidjson::kArrayType);
    for (const auto& p : rendered->pods) d.PushBack(encodePod(p, d.GetAllocator()), d.GetAllocator());
    std::string text = toYaml(d);
    benchmark::DoNotOptimize(text);
  }
}
BENCHMARK(BM_Render257PodPytorchJobToYaml)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace jobhost

BENCHMARK_MAIN();
