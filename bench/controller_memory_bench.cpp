// Controller memory per cached pod: operator new is counted (in this binary only, as counting
// slows every allocation) and the bytes still live after pod-added events are divided by the pods.
#include <benchmark/benchmark.h>
#include <malloc.h>

#include <atomic>
#include <cstdlib>
#include <new>

#include "bench/controller_rig.h"

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

namespace jobhost::bench {
namespace {

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
    std::vector<std::shared_ptr<const Pod>> objects;  // the backend's: the controller may move the events
    events.reserve(static_cast<size_t>(pods));
    objects.reserve(static_cast<size_t>(pods));
    for (int32_t i = 0; i < pods; ++i) {
      ClusterEvent ev;
      ev.type = ClusterEvent::Type::PodAdded;
      auto pod = std::make_shared<Pod>(*builder.makePod(job, 0, i));
      pod->metadata.uid = "0b1f7a52-3c1e-4d7a-9f55-" + std::to_string(100000000000 + i);
      objects.push_back(pod);
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
}  // namespace jobhost::bench

BENCHMARK_MAIN();
