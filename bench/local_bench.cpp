// Local backend benchmark: a 64-pod job of `true`, submit to Completed through the controller on
// the real clock (default isolation, i.e. `auto`, and explicitly native, bwrap and none), against
// spawning the same 64 processes directly, starting 64 native containers of `true` without the
// controller, and `mpirun -np 64 --oversubscribe true`. Wall-clock (manual) time per run. Open MPI
// 4.1 launches more than `odls_base_cutoff` (32) local processes from several threads and then can
// miss some of their exits and hang; the mpirun figure keeps the launch single-threaded. The jobs'
// work dir is on tmpfs (see benchWorkRoot).
#include <benchmark/benchmark.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <thread>

#include "host/cluster/local/local_backend.h"
#include "host/cluster/local/native_container.h"
#include "host/cluster/local/process.h"
#include "host/controller/controller.h"
#include "host/controller/no_plugin_job_plugins.h"
#include "host/controller/real_clock.h"

namespace {

using namespace jobhost;
using Clock = std::chrono::steady_clock;
constexpr int kPods = 64;

Job trueJob(const std::string& name) {
  Job job;
  job.metadata.name = name;
  job.metadata.namespace_ = "bench";
  job.spec.minAvailable = kPods;
  job.spec.queue = "default";
  job.spec.schedulerName = "volcano";
  TaskSpec task;
  task.name = "t";
  task.replicas = kPods;
  task.minAvailable = kPods;
  task.template_.spec.restartPolicy = "Never";
  Container c;
  c.name = "true";
  c.command = {"true"};
  task.template_.spec.containers.push_back(c);
  job.spec.tasks.push_back(task);
  return job;
}

void runLocalJobs(benchmark::State& state, const LocalBackendConfig& config) {
  auto backend = LocalBackend::create(config);
  if (!backend) return state.SkipWithError(backend.error().c_str());
  state.SetLabel(local::toString((*backend)->isolation()));
  NoPluginJobPlugins plugins;
  RealClock clock;
  std::mutex mutex;
  std::condition_variable changed;
  JobPhase phase = JobPhase::None;
  Controller controller(ControllerConfig{}, clock, **backend, plugins);
  controller.setObserver([&](const HandledRequest& r) {
    std::lock_guard lock(mutex);
    phase = r.phase;
    changed.notify_all();
  });
  (*backend)->setListener(&controller.listener());
  controller.start();
  int run = 0;
  for (auto _ : state) {
    const std::string name = "true64-" + std::to_string(run++);
    {
      std::lock_guard lock(mutex);
      phase = JobPhase::None;
    }
    const auto start = Clock::now();
    if (Status st = controller.submitJob(trueJob(name)); !st) return state.SkipWithError(st.message().c_str());
    {
      std::unique_lock lock(mutex);
      changed.wait(lock, [&] { return phase == JobPhase::Completed || phase == JobPhase::Failed; });
    }
    state.SetIterationTime(std::chrono::duration<double>(Clock::now() - start).count());
    controller.deleteJob("bench", name);
    while (!(*backend)->jobPods("bench", name).empty()) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  controller.stop();
  (*backend)->setListener(nullptr);
}

// Every pod creates a few files and directories in the work dir. On a disk filesystem (this VM's
// ext4 /tmp, mounted with discard) journal commits then dominate and drift from run to run, so the
// launch is measured on tmpfs: $JOBHOST_BENCH_WORKDIR, else /dev/shm, else the temp directory.
std::filesystem::path benchWorkRoot() {
  if (const char* dir = ::getenv("JOBHOST_BENCH_WORKDIR"); dir && *dir) return dir;
  if (std::error_code ec; std::filesystem::is_directory("/dev/shm", ec)) return "/dev/shm";
  return std::filesystem::temp_directory_path();
}

void localJob(benchmark::State& state, const char* isolation) {
  LocalBackendConfig config;
  config.workDir = (benchWorkRoot() / ("jobhost-bench-" + std::to_string(::getpid()))).string();
  config.isolation = isolation;
  runLocalJobs(state, config);
  std::filesystem::remove_all(config.workDir);
}

void BM_LocalJob64(benchmark::State& state) { localJob(state, "auto"); }
void BM_LocalJob64Native(benchmark::State& state) { localJob(state, "native"); }
void BM_LocalJob64Bwrap(benchmark::State& state) { localJob(state, "bwrap"); }
void BM_LocalJob64None(benchmark::State& state) { localJob(state, "none"); }

void BM_DirectSpawn64(benchmark::State& state) {
  for (auto _ : state) {
    const auto start = Clock::now();
    std::vector<pid_t> pids;
    for (int i = 0; i < kPods; ++i) pids.push_back(local::spawnSilently({"true"}));
    for (pid_t pid : pids) ::waitpid(pid, nullptr, 0);
    state.SetIterationTime(std::chrono::duration<double>(Clock::now() - start).count());
  }
}

// The isolation alone: 64 native containers of `true` (hostname, /etc/hosts and /etc/hostname
// bound, as a pod gets), started one after another on this thread and reaped, without the
// controller (the backend starts a sync's containers on several threads at once).
void BM_NativeSpawn64(benchmark::State& state) {
  if (!local::nativeTrial().empty()) return state.SkipWithError(local::nativeTrial().c_str());
  local::SpawnRequest request;
  request.argv = {"true"};
  request.env = {{"PATH", ::getenv("PATH") ? ::getenv("PATH") : ""}};
  const local::ContainerSandbox sandbox{"bench", "/etc/hosts", "/etc/hostname", {}, "/"};
  for (auto _ : state) {
    const auto start = Clock::now();
    std::vector<local::Spawned> spawned;
    for (int i = 0; i < kPods; ++i) {
      auto s = local::spawnNative(request, sandbox);
      if (!s) return state.SkipWithError(s.error().c_str());
      spawned.push_back(*s);
    }
    for (const auto& s : spawned) {
      ::close(s.pidfd);
      local::reapNative(s.pid, s.statusFd);
      ::close(s.statusFd);
    }
    state.SetIterationTime(std::chrono::duration<double>(Clock::now() - start).count());
  }
}

void BM_Mpirun64(benchmark::State& state) {
  if (::access("/usr/bin/mpirun", X_OK) != 0) return state.SkipWithError("mpirun not installed");
  for (auto _ : state) {
    const auto start = Clock::now();
    const pid_t pid = local::spawnSilently({"mpirun", "-np", "64", "--oversubscribe", "--allow-run-as-root", "--mca",
                                             "odls_base_cutoff", "1000", "true"});
    int status = 0;
    while (::waitpid(pid, &status, WNOHANG) == 0) {
      if (Clock::now() - start > std::chrono::seconds(20)) {
        ::kill(pid, SIGKILL);
        ::waitpid(pid, &status, 0);
        return state.SkipWithError("mpirun -np 64 --oversubscribe did not finish within 20 s (skipped)");
      }
      std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    state.SetIterationTime(std::chrono::duration<double>(Clock::now() - start).count());
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return state.SkipWithError("mpirun failed");
  }
}

// Spawn times move with the shared machine's load: three repetitions each, reported by their median
// (bench/run.sh), so one burst of load does not decide a ratio.
void spawnTimed(benchmark::internal::Benchmark* b) {
  b->UseManualTime()->Unit(benchmark::kMillisecond)->MinTime(2.0)->Repetitions(3)->ReportAggregatesOnly(true);
}
BENCHMARK(BM_LocalJob64)->Apply(spawnTimed);
BENCHMARK(BM_LocalJob64Native)->Apply(spawnTimed);
BENCHMARK(BM_LocalJob64Bwrap)->Apply(spawnTimed);
BENCHMARK(BM_LocalJob64None)->Apply(spawnTimed);
BENCHMARK(BM_DirectSpawn64)->Apply(spawnTimed);
BENCHMARK(BM_NativeSpawn64)->Apply(spawnTimed);
BENCHMARK(BM_Mpirun64)->Apply(spawnTimed);

}  // namespace

BENCHMARK_MAIN();
