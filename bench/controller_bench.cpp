// Controller benchmarks on the sim backend under the virtual clock: many small jobs end to end
// (no plugins; env+svc+coscheduling from their .so files; plus ssh), cost per pod, memory per pod.
#include <benchmark/benchmark.h>
#include <malloc.h>

#include <atomic>
#include <cstdlib>
#include <memory>
#include <new>
#include <stdexcept>

#include "host/cluster/sim/sim_cluster.h"
#include "host/cluster/sim/sim_driver.h"
#include "host/config/config.h"
#include "host/controller/controller.h"
#include "host/controller/no_plugin_job_plugins.h"
#include "host/controller/virtual_clock.h"
#include "host/plugin/plugin_job_plugins.h"
#include "host/plugin/registry.h"

// Bytes live through operator new, whatever malloc is underneath (mimalloc has no mallinfo2).
std::atomic<int64_t> gLiveBytes{0};

void* countedNew(size_t n) {
  void* p = std::malloc(n == 0 ? 1 : n);
  if (!p) throw std::bad_alloc();
  gLiveBytes.fetch_add(static_cast<int64_t>(malloc_usable_size(p)), std::memory_order_relaxed);
  return p;
}

void countedDelete(void* p) noexcept {
  if (!p) return;
  gLiveBytes.fetch_sub(static_cast<int64_t>(malloc_usable_size(p)), std::memory_order_relaxed);
  std::free(p);
}

void* operator new(size_t n) { return countedNew(n); }
void* operator new[](size_t n) { return countedNew(n); }
void operator delete(void* p) noexcept { countedDelete(p); }
void operator delete[](void* p) noexcept { countedDelete(p); }
void operator delete(void* p, size_t) noexcept { countedDelete(p); }
void operator delete[](void* p, size_t) noexcept { countedDelete(p); }

namespace jobhost {
namespace {

/// Which JobPlugins a benchmark runs with: none (workload builders only), or the shipped plugins
/// loaded by the production loader from lib/jobhost/plugins with the job naming env, svc and
/// coscheduling (and ssh, whose RSA-2048 key generation costs ~100 ms per job). The default
/// config guards every plugin call with a deadline (a helper-thread handoff per call);
/// EnvSvcCoschedNoDeadline sets pluginCallTimeout 0 so calls run inline.
enum class Plugins { None, EnvSvcCosched, EnvSvcCoschedSsh, EnvSvcCoschedNoDeadline };

std::unique_ptr<JobPlugins> makeBenchPlugins(Plugins which) {
  if (which == Plugins::None) return std::make_unique<NoPluginJobPlugins>();
  HostConfig config = *defaultHostConfig();
  if (which == Plugins::EnvSvcCoschedNoDeadline)
    for (auto& entry : config.plugins) entry.callTimeout = Duration{0};
  auto registry = Registry::load(config);
  if (!registry) throw std::runtime_error("plugin load failed: " + registry.error());
  return std::make_unique<PluginJobPlugins>(*registry, config.priorityClasses);
}

Job benchJob(const std::string& name, int32_t pods, Plugins which = Plugins::None) {
  Job job;
  if (which != Plugins::None) job.spec.plugins = {{"env", {}}, {"svc", {}}, {"coscheduling", {}}};
  if (which == Plugins::EnvSvcCoschedSsh) job.spec.plugins["ssh"] = {};
  job.metadata.name = name;
  job.metadata.namespace_ = "bench";
  job.spec.queue = "default";
  job.spec.schedulerName = "volcano";
  job.spec.maxRetry = 3;
  job.spec.minAvailable = pods;
  TaskSpec task;
  task.name = "worker";
  task.replicas = pods;
  task.maxRetry = 3;
  Container c;
  c.name = "main";
  c.image = "busybox";
  task.template_.spec.containers.push_back(c);
  task.template_.spec.restartPolicy = "Never";
  job.spec.tasks.push_back(task);
  return job;
}

struct Rig {
  VirtualClock clock{0};
  std::unique_ptr<JobPlugins> plugins;
  SimCluster sim;
  Controller controller;
  SimDriver driver;
  std::atomic<uint64_t> requests{0};
  explicit Rig(int workers, Plugins which = Plugins::None)
      : plugins(makeBenchPlugins(which)),
        sim(clock, SimBackendConfig{}),
        controller(ControllerConfig{workers, 15}, clock, sim, *plugins),
        driver(clock, sim, controller) {
    controller.setObserver([this](const HandledRequest&) { requests.fetch_add(1, std::memory_order_relaxed); });
    controller.start();
  }
};

/// Arg 0: jobs of 8 pods; arg 1: Plugins. Times submit (which runs the plugin pipeline) to the
/// last job Completed.
void BM_ManyJobsToCompletion(benchmark::State& state) {
  const int jobs = static_cast<int>(state.range(0));
  const auto which = static_cast<Plugins>(state.range(1));
  uint64_t events = 0, requests = 0;
  for (auto _ : state) {
    state.PauseTiming();
    auto rig = std::make_unique<Rig>(2, which);
    state.ResumeTiming();
    for (int i = 0; i < jobs; ++i)
      if (!rig->controller.submitJob(benchJob("job-" + std::to_string(i), 8, which)))
        state.SkipWithError("submit failed");
    rig->driver.runUntil(SimDriver::kForever);
    state.PauseTiming();
    for (int i = 0; i < jobs; i += jobs / 10) {
      auto job = rig->controller.getJob("bench", "job-" + std::to_string(i));
      if (!job || job->status.state.phase != JobPhase::Completed) state.SkipWithError("a job did not complete");
    }
    events += rig->sim.eventsDelivered();
    requests += rig->requests.load();
    rig->controller.stop();
    rig.reset();  // teardown is not part of the figure
    state.ResumeTiming();
  }
  state.counters["jobs/s"] = benchmark::Counter(static_cast<double>(jobs) * static_cast<double>(state.iterations()),
                                                benchmark::Counter::kIsRate);
  state.counters["podEvents/s"] = benchmark::Counter(static_cast<double>(events), benchmark::Counter::kIsRate);
  state.counters["requests/s"] = benchmark::Counter(static_cast<double>(requests), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_ManyJobsToCompletion)
    ->ArgNames({"jobs", "plugins"})
    ->Args({10'000, static_cast<int64_t>(Plugins::None)})
    ->Args({10'000, static_cast<int64_t>(Plugins::EnvSvcCosched)})
    ->Args({10'000, static_cast<int64_t>(Plugins::EnvSvcCoschedNoDeadline)})
    ->Args({20, static_cast<int64_t>(Plugins::EnvSvcCoschedSsh)})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(3);

void BM_OneJobCostPerPod(benchmark::State& state) {
  const auto pods = static_cast<int32_t>(state.range(0));
  for (auto _ : state) {
    Rig rig(2);
    (void)rig.controller.submitJob(benchJob("big", pods));
    rig.driver.runUntil(SimDriver::kForever);
    rig.controller.stop();
  }
  state.SetItemsProcessed(state.iterations() * pods);
  state.counters["s/pod"] = benchmark::Counter(static_cast<double>(pods) * static_cast<double>(state.iterations()),
                                               benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_OneJobCostPerPod)
    ->Arg(10)->Arg(100)->Arg(1000)->Arg(10'000)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Repetitions(3)  // the small jobs are short and noisy on a shared machine: report the mean
    ->ReportAggregatesOnly(true);

/// Bytes the controller allocates per cached pod (pod records and counters), measured as the
/// operator new bytes still live after feeding pod-added events straight to the idle controller
/// and letting it handle them.
void BM_ControllerMemoryPerCachedPod(benchmark::State& state) {
  const auto pods = static_cast<int32_t>(state.range(0));
  double perPod = 0;
  for (auto _ : state) {
    Rig rig(2);
    Job job = benchJob("mem", pods);
    (void)rig.controller.submitJob(job);
    rig.controller.waitForIdle();
    job = *rig.controller.getJob("bench", "mem");
    NoPluginJobPlugins builder;
    std::vector<ClusterEvent> events;
    events.reserve(static_cast<size_t>(pods));
    for (int32_t i = 0; i < pods; ++i) {
      ClusterEvent ev;
      ev.type = ClusterEvent::Type::PodAdded;
      auto pod = std::make_shared<Pod>(*builder.makePod(job, 0, i));
      pod->metadata.uid = "0b1f7a52-3c1e-4d7a-9f55-" + std::to_string(100000000000 + i);
      ev.pod.object = std::move(pod);
      events.push_back(std::move(ev));
    }
    const int64_t before = gLiveBytes.load();
    rig.controller.listener().onClusterEvents(events);
    rig.controller.waitForIdle();
    const int64_t after = gLiveBytes.load();
    rig.controller.stop();
    perPod = static_cast<double>(after - before) / pods;
    if (rig.controller.cachedPodCount("bench", "mem") != static_cast<size_t>(pods)) state.SkipWithError("pods not cached");
  }
  state.counters["bytes/pod"] = perPod;
}
BENCHMARK(BM_ControllerMemoryPerCachedPod)->Arg(10'000)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace
}  // namespace jobhost

BENCHMARK_MAIN();
