// One started pod: its init containers in order (each must succeed), then all its containers as
// processes (native, bwrap or plain), restarts per restartPolicy with back-off and restart counts,
// readiness, the pod phase from the real exits, termination (TERM, KILL after the grace period) and
// activeDeadlineSeconds.
// Every member runs on the backend's loop thread; the container starts themselves run on the
// starter threads, so that the starts of many pods overlap.
#pragma once

#include <sys/types.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/thread_pool.hpp>

#include "host/cluster/local/container_env.h"
#include "host/cluster/local/container_start.h"
#include "host/cluster/local/isolation.h"
#include "host/cluster/local/log_pump.h"
#include "host/cluster/local/process.h"
#include "host/cluster/local/readiness_probe.h"
#include "host/cluster/local/sandbox.h"
#include "jobhost/pod.h"

namespace jobhost::local {

struct PodRunSpec {
  std::shared_ptr<const Pod> pod;
  SandboxLayout layout;
  std::string hostsFile;
  Isolation isolation = Isolation::None;
  EnvInputs env;  // env.pod points into `pod`
  int gracePeriodSeconds = 5;
  int restartBackoffMs = 1000;  // first restart delay; doubles per crash up to maxBackoffMs
  int maxBackoffMs = 30000;
  boost::asio::thread_pool* starters = nullptr;  // where containers start; lives as long as they run
};

/// The pod's `terminationGracePeriodSeconds` when it sets one (>= 0), else `fallback` (the local
/// backend's `gracePeriodSeconds`): how long a deleted pod's containers have between SIGTERM and SIGKILL.
int gracePeriodSeconds(const PodSpec& spec, int fallback);

/// The pod's `activeDeadlineSeconds` when it sets one (> 0): how long it may run from its start
/// before the kubelet fails it (DeadlineExceeded) and stops its containers.
std::optional<int64_t> activeDeadlineSeconds(const PodSpec& spec);

class PodRun : public std::enable_shared_from_this<PodRun> {
 public:
  using StatusFn = std::function<void(const PodStatus&)>;
  using GoneFn = std::function<void()>;
  PodRun(boost::asio::io_context& io, PodRunSpec spec, StatusFn onStatus, GoneFn onGone);

  /// Starts the pod from `initial` (podIP and nodeName set, phase Pending).
  void start(PodStatus initial);
  /// Stops the pod: no more restarts, TERM now, KILL after the grace period (a container whose
  /// start completes later is killed at once); onGone once every process has exited and no start
  /// is under way (at once when none runs).
  void terminate();
  /// terminate() without a grace period: KILL now (shutdown, a second Ctrl-C).
  void kill();
  /// The pids (process groups) of the containers running now.
  std::vector<pid_t> processIds() const;

 private:
  struct Slot {
    const Container* spec = nullptr;
    bool init = false;
    size_t index = 0;
    pid_t pid = -1;
    int statusFd = -1;  // native: the init's status pipe
    std::unique_ptr<boost::asio::posix::stream_descriptor> exited;
    pid_t initPid = -1;  // bwrap: the init of the container's PID namespace
    std::unique_ptr<boost::asio::posix::stream_descriptor> initExited;  // ... its pidfd, until it exits
    std::shared_ptr<LogPump> log;  // this start's stdout and stderr
    std::unique_ptr<boost::asio::steady_timer> retry;
    std::shared_ptr<ReadinessProber> prober;
    std::vector<std::pair<std::string, std::string>> env;
    std::string workingDir;
    std::chrono::steady_clock::time_point startedAt;
    int backoffMs = 0;
    bool probed = false;
    bool starting = false;  // its start runs on a starter thread
    bool exiting = false;   // it has exited; its output is still being copied to the log
    bool done = false;      // terminated and will not start again
    bool termSent = false;
  };

  void launch(Slot& slot);
  Expected<ContainerStart> startOf(const Container& c, const std::vector<std::pair<std::string, std::string>>& env,
                                   const std::string& workingDir) const;
  void onStarted(Slot& slot, Expected<Spawned> spawned);
  bool settling() const;  // a start runs, a bwrap container's namespace still dies, or output is copied
  void awaitProcessExit(Slot& slot);  // onProcessExit once the slot's process has exited
  void onProcessExit(Slot& slot);
  void afterLogDrained(Slot& slot, std::function<void()> then);
  void startFailed(Slot& slot, const std::string& error);
  void startMains();
  void onExit(Slot& slot, int32_t exitCode, int32_t signal);
  void retryLater(Slot& slot, int delayMs, bool countRestart);
  void failPod(const std::string& reason, const std::string& message);
  void deadlineExceeded();  // fail the pod, then stop its containers as a delete does, keeping the pod
  void stopContainers();    // no more restarts or probes; TERM now, KILL after the grace period
  void updatePhase();
  void publish();
  void maybeGone();
  void sendTerm();
  void killSlot(Slot& slot);
  ContainerStatus& statusOf(const Slot& slot);
  bool restarts(int32_t exitCode) const;

  boost::asio::io_context& io_;
  PodRunSpec spec_;
  StatusFn onStatus_;
  GoneFn onGone_;
  std::vector<Slot> inits_, mains_;
  PodStatus status_;
  PodStatus published_;
  bool mainsStarted_ = false, terminating_ = false, gone_ = false, failed_ = false;
  boost::asio::steady_timer killTimer_, termTimer_, deadlineTimer_;
};

}  // namespace jobhost::local
