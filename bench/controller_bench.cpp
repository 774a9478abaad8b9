// Controller benchmarks on the sim backend under the virtual clock: many small jobs end to end
// (no plugins; env+svc+coscheduling from their .so files; plus ssh) and cost per pod of one job
// (no plugins; env+svc+coscheduling+mpi).
#include <benchmark/benchmark.h>

#include <memory>

#include "bench/controller_rig.h"

namespace jobhost::bench {
namespace {

/// Arg 0: jobs of 8 pods; arg 1: Plugins. Times submit (which runs the plugin pipeline) to the
/// last job Completed. Each repetition is one run on a fresh rig. The process's first run also
/// faults in its memory (about 700 MB at 10,000 jobs, zeroed by the kernel on first touch);
/// later runs reuse it, as a long-running controller does. bench/run.sh reports the median of the
/// repetitions, and the first repetition of the first benchmark as the cold figure.
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
    requests += rig->controller.requestsProcessed();
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
    ->Iterations(1)
    ->Repetitions(3);

/// One job of `pods` pods of `cpuMilli` each, with plugins `which`, on `cluster`, to Completed.
void runOneJob(benchmark::State& state, int32_t pods, Plugins which, const SimBackendConfig& cluster = {},
               int64_t cpuMilli = 0) {
  for (auto _ : state) {
    state.PauseTiming();
    auto rig = std::make_unique<Rig>(2, which, cluster);
    state.ResumeTiming();
    if (!rig->controller.submitJob(benchJob("big", pods, which, cpuMilli))) state.SkipWithError("submit failed");
    rig->driver.runUntil(SimDriver::kForever);
    state.PauseTiming();
    auto job = rig->controller.getJob("bench", "big");
    if (!job || job->status.state.phase != JobPhase::Completed) state.SkipWithError("the job did not complete");
    rig->controller.stop();
    rig.reset();  // loading plugins and teardown are not part of the figure
    state.ResumeTiming();
  }
  state.SetItemsProcessed(state.iterations() * pods);
  state.counters["s/pod"] = benchmark::Counter(static_cast<double>(pods) * static_cast<double>(state.iterations()),
                                               benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
/// Arg 0: pods of the one job.
void BM_OneJobCostPerPod(benchmark::State& state) {
  runOneJob(state, static_cast<int32_t>(state.range(0)), Plugins::None);
}
BENCHMARK(BM_OneJobCostPerPod)
    ->Arg(10)->Arg(100)->Arg(1000)->Arg(10'000)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Repetitions(3)  // the small jobs are short and noisy on a shared machine: report the median
    ->ReportAggregatesOnly(true);

/// The same with env, svc, coscheduling and mpi from their .so files: the hosts ConfigMap and the
/// hostfile name every worker, and are neither rebuilt nor compared on each of the job's syncs.
void BM_OneJobWithPluginsCostPerPod(benchmark::State& state) {
  runOneJob(state, static_cast<int32_t>(state.range(0)), Plugins::EnvSvcCoschedMpi);
}
BENCHMARK(BM_OneJobWithPluginsCostPerPod)
    ->Arg(10)->Arg(10'000)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Repetitions(3)
    ->ReportAggregatesOnly(true);

/// Arg 0: nodes of 8 CPUs. One gang of 20,000 one-CPU pods: each pod's node comes from the
/// scheduler's node index, so 100,000 nodes cost about what 2,500 do (a scan of every node did not).
void BM_OneJobOnLargeCluster(benchmark::State& state) {
  SimBackendConfig cluster;
  cluster.nodes = static_cast<int>(state.range(0));
  runOneJob(state, 20'000, Plugins::None, cluster, 1000);
}
BENCHMARK(BM_OneJobOnLargeCluster)
    ->ArgName("nodes")
    ->Arg(2'500)->Arg(100'000)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(2);

}  // namespace
}  // namespace jobhost::bench

BENCHMARK_MAIN();
