// Guard threads, the watchdog and the quarantine list. Shared state is leaked on purpose: abandoned
// helper threads and the watchdog may outlive static destruction at exit.
#include "host/plugin/call_deadline.h"

#include <pthread.h>
#include <sched.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string_view>
#include <thread>
#include <vector>

#include "host/common/futex.h"
#include "host/common/log.h"
#include "host/spec/duration.h"

namespace jobhost::deadline {
namespace {

using Clock = std::chrono::steady_clock;
constexpr uint64_t kAbandoned = ~uint64_t{0};  // call state once the watchdog gave up on a call
// A flag's values. kSleeping: its waiter sleeps on it (only then does setting it cost a wake-up).
enum : uint32_t { kIdle, kSleeping, kTask, kDone, kTimedOut, kStop };

int64_t nowNs() { return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now().time_since_epoch()).count(); }

/// One caller thread's helper. `task` wakes the helper, `done` wakes the caller.
struct Runner {
  std::atomic<uint32_t> task{kIdle};
  std::atomic<uint32_t> done{kIdle};
  Status (*fn)(void*) = nullptr;
  void* arg = nullptr;
  Status result;
  // The call in progress: (sequence << 1) | 1 while a call runs, its deadline, and who it is.
  std::atomic<uint64_t> call{0};
  std::atomic<int64_t> deadlineNs{0};
  uint64_t seq = 0;  // guard thread only
  const RegisteredPlugin* plugin = nullptr;
  const char* where = "";
  Duration timeout;
};

struct Quarantine {
  const RegisteredPlugin* plugin;
  // Kept alive for good: the abandoned call may still be running in it (its library is never
  // unloaded either). Also the plugin's identity, as its address is then never reused.
  std::shared_ptr<PluginInstance> instance;
  std::string why;
};

struct Shared {
  std::mutex mutex;
  std::condition_variable wake;
  std::vector<std::weak_ptr<Runner>> runners;
  std::atomic<int64_t> shortestNs{INT64_MAX};  // shortest timeout seen: sets the watchdog's period
  bool watching = false;
  std::atomic<int> quarantinedCount{0};
  std::vector<Quarantine> quarantined;
};

Shared& shared() {
  static Shared* s = new Shared;  // leaked: see the header comment
  return *s;
}

thread_local Runner* tlServing = nullptr;  // on a guard thread: the runner it serves

/// Waits until `flag` leaves kIdle and returns its value: a short busy wait first (a plugin call
/// often ends within a few microseconds), then sleeping on the flag. No sched_yield: with more
/// threads than processors every yield is a context switch that does no useful work.
constexpr auto kSpin = std::chrono::microseconds(2);
uint32_t awaitNotIdle(std::atomic<uint32_t>& flag) {
  uint32_t v = flag.load(std::memory_order_acquire);
  if (v != kIdle) return v;
  const auto until = Clock::now() + kSpin;
  do {
    for (int i = 0; i < 64; ++i) {
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#endif
      if ((v = flag.load(std::memory_order_acquire)) != kIdle) return v;
    }
  } while (Clock::now() < until);
  if (!flag.compare_exchange_strong(v, kSleeping, std::memory_order_acq_rel)) return v;
  while ((v = flag.load(std::memory_order_acquire)) == kSleeping) futexWait(flag, kSleeping);
  return v;
}

/// Sets `flag` to `value`, waking its waiter if it sleeps (a system call only then).
void signal(std::atomic<uint32_t>& flag, uint32_t value) {
  if (flag.exchange(value, std::memory_order_acq_rel) == kSleeping) futexWake(flag);
}

void parkForever() {
  std::atomic<int> never{0};
  for (;;) never.wait(0);  // parked for good
}

/// The config key the plugin's call deadline came from.
const char* timeoutSource(const Runner& r) {
  return r.plugin->entry.ownCallTimeout ? "its callTimeout" : "pluginCallTimeout";
}

void quarantine(const Runner& r) {
  Shared& s = shared();
  std::string why = "quarantined: it did not return from " + std::string(r.where) + " within " +
                    formatGoDuration(r.timeout) + " earlier (" + timeoutSource(r) + "); restart the host to use it again";
  log::get("plugins")->error("plugin \"{}\" did not return from {} within {}; its call is abandoned and the plugin is {}",
                             r.plugin->names[0], r.where, formatGoDuration(r.timeout), "quarantined");
  std::lock_guard lock(s.mutex);
  s.quarantined.push_back({r.plugin, r.plugin->loaded.instance, std::move(why)});
  s.quarantinedCount.fetch_add(1, std::memory_order_release);
}

/// Abandons the call in progress on `r` if it is past its deadline. Called by the watchdog.
void check(Runner& r, int64_t now) {
  uint64_t c = r.call.load(std::memory_order_acquire);
  if ((c & 1) == 0 || c == kAbandoned) return;
  int64_t dl = r.deadlineNs.load(std::memory_order_acquire);
  if (now < dl || !r.call.compare_exchange_strong(c, kAbandoned, std::memory_order_acq_rel)) return;
  quarantine(r);
  signal(r.done, kTimedOut);
}

void watchdog() {
  Shared& s = shared();
  std::unique_lock lock(s.mutex);
  for (;;) {
    int64_t period = std::clamp<int64_t>(s.shortestNs.load() / 4, 1'000'000, 500'000'000);
    s.wake.wait_for(lock, std::chrono::nanoseconds(period));
    std::erase_if(s.runners, [](const auto& w) { return w.expired(); });
    std::vector<std::shared_ptr<Runner>> live;
    for (const auto& w : s.runners)
      if (auto r = w.lock()) live.push_back(std::move(r));
    lock.unlock();
    int64_t now = nowNs();
    for (const auto& r : live) check(*r, now);
    live.clear();
    lock.lock();
  }
}

void serve(std::shared_ptr<Runner> r) {
  tlServing = r.get();
  for (;;) {
    const uint32_t t = awaitNotIdle(r->task);
    if (t == kStop) return;
    r->task.store(kIdle, std::memory_order_relaxed);
    r->result = r->fn(r->arg);
    signal(r->done, kDone);
  }
}

/// This caller thread's guard thread. When the caller thread ends (for the main thread: at exit)
/// the guard is stopped and joined, so its thread-exit work (such as OpenSSL freeing its per-thread
/// state) is over before exit goes on; a guard abandoned inside a plugin is detached instead.
struct Guard {
  std::shared_ptr<Runner> runner;
  std::thread thread;
  ~Guard() {
    if (!runner) return;
    signal(runner->task, kStop);
    thread.join();
  }
  int cpu = -1;  // the processor the guard thread is kept on: its caller's at the last handoff
  /// Keeps the guard thread on the caller's current processor: the caller sleeps while the guard
  /// works on the caller's objects, so they stay in that processor's cache (a 65-pod render took
  /// 830 us with the guard on the other processor, 630 us on the same one).
  void followCaller() {
    const int now = sched_getcpu();
    if (now < 0 || now == cpu) return;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(now, &set);
    if (pthread_setaffinity_np(thread.native_handle(), sizeof set, &set) == 0) cpu = now;
  }
  void abandon() {
    thread.detach();
    runner.reset();
  }
};
thread_local Guard tlGuard;

Runner& runner() {
  if (tlGuard.runner) return *tlGuard.runner;
  tlGuard.runner = std::make_shared<Runner>();
  Shared& s = shared();
  {
    std::lock_guard lock(s.mutex);
    s.runners.push_back(tlGuard.runner);
    if (!s.watching) std::thread(watchdog).detach();
    s.watching = true;
  }
  tlGuard.thread = std::thread(serve, tlGuard.runner);
  return *tlGuard.runner;
}

}  // namespace

namespace {
// Why `plugin` is quarantined, or "" when it is not.
std::string quarantineReason(const RegisteredPlugin& plugin) {
  Shared& s = shared();
  if (s.quarantinedCount.load(std::memory_order_acquire) == 0) return "";
  std::lock_guard lock(s.mutex);
  for (const auto& q : s.quarantined)
    if (q.plugin == &plugin && q.instance == plugin.loaded.instance) return q.why;
  return "";
}
}  // namespace

bool isQuarantined(const RegisteredPlugin& plugin) { return !quarantineReason(plugin).empty(); }

std::optional<Status> refuseQuarantined(const RegisteredPlugin& plugin, const char* where) {
  if (!anyQuarantined()) return std::nullopt;
  const std::string why = quarantineReason(plugin);
  if (why.empty()) return std::nullopt;
  if (std::string_view(where) != "OnJobDelete") return Status::error(why);
  log::get("plugins")->warn("skipping OnJobDelete of plugin \"{}\": {}", plugin.names[0], why);
  return Status::ok();
}

bool anyQuarantined() { return shared().quarantinedCount.load(std::memory_order_acquire) > 0; }

bool onGuardThread() { return tlServing != nullptr; }

void begin(const RegisteredPlugin& plugin, const char* where) {
  Runner& r = *tlServing;
  r.plugin = &plugin;
  r.where = where;
  r.timeout = plugin.entry.callTimeout;
  if (r.timeout.ms <= 0) return;  // no deadline for this plugin: the slot stays idle
  int64_t ns = r.timeout.ms * 1'000'000;
  Shared& s = shared();
  if (ns < s.shortestNs.load(std::memory_order_relaxed)) {
    s.shortestNs.store(ns);
    s.wake.notify_one();
  }
  r.deadlineNs.store(nowNs() + ns, std::memory_order_relaxed);
  r.call.store((++r.seq << 1) | 1, std::memory_order_release);
}

void end() {
  Runner& r = *tlServing;
  if (r.timeout.ms <= 0) return;
  uint64_t c = (r.seq << 1) | 1;
  if (!r.call.compare_exchange_strong(c, r.seq << 1, std::memory_order_acq_rel)) parkForever();
}

Status runGuarded(Status (*fn)(void*), void* arg, bool nameCall) {
  Runner& r = runner();
  r.fn = fn;
  r.arg = arg;
  tlGuard.followCaller();
  signal(r.task, kTask);
  const uint32_t d = awaitNotIdle(r.done);
  r.done.store(kIdle, std::memory_order_relaxed);
  if (d == kDone) return std::move(r.result);
  std::string message = "did not return within " + formatGoDuration(r.timeout) + " (" + timeoutSource(r) +
                        "); the call was abandoned and the plugin quarantined";
  if (nameCall) message = "plugin \"" + r.plugin->names[0] + "\" failed in " + r.where + ": " + message;
  tlGuard.abandon();  // the guard thread stays parked in the plugin; the next handoff gets a new one
  return Status::error(message);
}

}  // namespace jobhost::deadline
