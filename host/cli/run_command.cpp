// `jobhost run JOB [--config FILE]`: admit the job, run it on the local backend with live progress,
// terminate it cleanly on SIGINT/SIGTERM/SIGHUP or a closed stdout, and exit with its final phase.
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>

#include "host/cli/cli.h"
#include "host/cli/job_intake.h"
#include "host/cli/run_progress.h"
#include "host/cluster/local/job_dir_lock.h"
#include "host/cluster/local/local_backend.h"
#include "host/cluster/local/pod_run.h"
#include "host/cluster/local/preflight.h"
#include "host/controller/controller.h"
#include "host/controller/real_clock.h"
#include "host/plugin/plugin_job_plugins.h"
#include "host/plugin/plugin_validation.h"
#include "host/plugin/registry.h"
#include "host/workload/names.h"

namespace jobhost::cli {
namespace {

using Clock = std::chrono::steady_clock;

// Blocks SIGINT/SIGTERM/SIGHUP/SIGPIPE for this thread and every thread started after it (the
// controller's and the backend's), so that only sigtimedwait below receives them (a write to a closed
// stdout then fails with EPIPE and leaves SIGPIPE pending here); restores the mask on exit.
class BlockedSignals {
 public:
  BlockedSignals() {
    sigemptyset(&set_);
    for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGPIPE}) sigaddset(&set_, sig);
    pthread_sigmask(SIG_BLOCK, &set_, &old_);
  }
  ~BlockedSignals() { pthread_sigmask(SIG_SETMASK, &old_, nullptr); }
  /// The signal that arrived within `ms`, or 0. A closed stdout is reported once: the failed
  /// writes after it are not new requests to stop.
  int wait(int ms) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
    for (;;) {
      const auto left = std::chrono::duration_cast<std::chrono::nanoseconds>(until - std::chrono::steady_clock::now());
      if (left.count() <= 0) return 0;
      timespec ts{static_cast<time_t>(left.count() / 1'000'000'000), static_cast<long>(left.count() % 1'000'000'000)};
      const int sig = sigtimedwait(&set_, nullptr, &ts);
      if (sig <= 0) return 0;
      if (sig != SIGPIPE || !outputClosed_) {
        outputClosed_ = outputClosed_ || sig == SIGPIPE;
        return sig;
      }
    }
  }

 private:
  sigset_t set_{}, old_{};
  bool outputClosed_ = false;
};

int exitCodeOf(JobPhase phase) {
  switch (phase) {
    case JobPhase::Completed: return kOk;
    case JobPhase::Failed: return kJobFailed;
    case JobPhase::Aborted: return kJobAborted;
    default: return kJobTerminated;
  }
}

// Why the run is stopping, for a signal BlockedSignals receives.
const char* why(int sig) {
  switch (sig) {
    case SIGINT: return "interrupted";
    case SIGHUP: return "hung up";
    case SIGPIPE: return "output closed";
    default: return "terminated";
  }
}

bool ended(JobPhase phase) { return isFinished(phase) || phase == JobPhase::Aborted; }

}  // namespace

int runCommand(const Args& args, Streams io) {
  if (args.positionals.size() != 1) {
    io.err << "jobhost run: expected exactly one job file\n";
    return kUsage;
  }
  int rc = kOk;
  auto host = loadHostSetup(args, io, &rc);
  if (!host) return rc;
  auto admitted = admitSingleJob("run", args.positionals[0], *host, io, &rc);
  if (!admitted) return rc;
  if (const auto problems = local::preflight(admitted->document.job); !problems.empty()) {
    for (const auto& e : problems)
      io.err << admitted->document.source.where(e.field) << ": " << e.field << ": " << e.message << "\n";
    io.err << "jobhost run: job " << jobKey(admitted->document.job) << " cannot run on this machine\n";
    return kRejected;
  }
  const HostConfig* config = &host->config;
  const auto& registry = host->registry;
  Job& job = admitted->document.job;
  if (job.metadata.namespace_.empty()) job.metadata.namespace_ = "default";
  const std::string ns = job.metadata.namespace_, name = job.metadata.name;
  // The run itself deletes the job once it ended; a TTL (even 0) would only race it for the result.
  job.spec.ttlSecondsAfterFinished.reset();

  // How long a terminated job may take to stop: its longest pod grace period, plus slack.
  int grace = config->local.gracePeriodSeconds;
  for (const auto& task : job.spec.tasks)
    grace = std::max(grace, local::gracePeriodSeconds(task.template_.spec, config->local.gracePeriodSeconds));
  const auto stopWithin = std::chrono::seconds(grace + 15);

  // A write to a closed stdout fails with EPIPE (and a SIGPIPE that BlockedSignals still receives
  // while blocked) instead of killing the run once the mask is restored: the job's result is the exit code.
  ::signal(SIGPIPE, SIG_IGN);
  BlockedSignals signals;
  auto backend = LocalBackend::create(config->local);
  if (!backend) {
    io.err << "jobhost run: " << backend.error() << "\n";
    return kConfigError;
  }
  LocalBackend& local = **backend;
  auto lock = local::JobDirLock::acquire(local.workDir(), ns, name);
  if (!lock) {
    io.err << "jobhost run: " << lock.error() << "\n";
    return kRejected;
  }
  const std::string logDir = local.jobDir(ns, name);
  std::error_code ec;
  std::filesystem::remove_all(logDir, ec);  // every run starts with a fresh job directory
  PluginJobPlugins plugins(registry, config->priorityClasses);
  RealClock clock;
  ControllerConfig controllerConfig = config->controller;
  if (admitted->forwarded) controllerConfig.forwardingQueues.push_back(job.spec.queue);
  Controller controller(controllerConfig, clock, local, plugins);
  PodOutcomes outcomes(controller.listener(), ns, name);
  local.setListener(&outcomes);
  controller.start();
  // The file's own ConfigMaps and Secrets first, as `kubectl apply -f` creates them in file order.
  if (ClusterStatus st = local.applyObjects(ns, admitted->objects); !st.ok()) {
    io.err << "jobhost run: cannot create the file's ConfigMaps and Secrets: " << st.message << "\n";
    controller.stop();
    local.setListener(nullptr);
    return kRejected;
  }
  if (Status st = controller.submitJob(job); !st) {
    io.err << "jobhost run: cannot start job " << ns << "/" << name << ": " << st.message() << "\n";
    controller.stop();
    local.setListener(nullptr);
    return kRejected;
  }
  io.out << "jobhost run: job " << ns << "/" << name << " on this machine (isolation "
         << local::toString(local.isolation()) << ", " << local.capacity().toString() << "); logs in " << logDir
         << "\n" << std::flush;

  const bool tty = &io.out == &std::cout && ::isatty(STDOUT_FILENO);
  ProgressView view(io.out, tty);
  const auto started = Clock::now();
  auto elapsedMs = [&] {
    return std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - started).count();
  };
  int interrupts = 0;
  std::optional<Clock::time_point> killDeadline;
  // Restarting swallows every command (Volcano's state table): a job seen Pending or Running after
  // the interrupt gets TerminateJob again, at most once a second.
  Clock::time_point nextTerminate;
  auto terminate = [&] {
    controller.issueCommand(Command{ns, name, std::string(actions::TerminateJob), "", "", ""});
    nextTerminate = Clock::now() + std::chrono::seconds(1);
  };
  JobProgress last;
  for (;;) {
    auto job = controller.getJob(ns, name);
    if (!job) break;
    auto pods = local.jobPods(ns, name);
    last = takeProgress(*job, pods, local.getPodGroup(ns, podGroupName(*job)), elapsedMs());
    view.show(last);
    const JobPhase phase = job->status.state.phase;
    if (ended(phase)) break;
    if (interrupts > 0 && (phase == JobPhase::Pending || phase == JobPhase::Running) && Clock::now() >= nextTerminate)
      terminate();
    if (int sig = signals.wait(tty ? 200 : 100)) {
      if (++interrupts > 1) break;  // kill at once: the job goes and its processes are killed below
      io.err << "\njobhost run: " << why(sig) << ", terminating job " << ns << "/" << name
             << " (again to kill at once)\n";
      terminate();
      killDeadline = Clock::now() + stopWithin;
    }
    if (killDeadline && Clock::now() > *killDeadline) local.killAll();
  }
  // Whatever still runs (e.g. workers after CompleteJob) goes with the job; wait for every process.
  // Deleting the job first means nothing recreates a pod killed here.
  controller.deleteJob(ns, name);
  const auto giveUp = interrupts > 1 ? Clock::now() : Clock::now() + stopWithin;
  while (!local.jobPods(ns, name).empty()) {
    if (signals.wait(100) || Clock::now() > giveUp) local.killAll();
  }
  controller.stop();
  local.setListener(nullptr);
  last.elapsedMs = elapsedMs();
  printSummary(io.out, last, outcomes.byTask(job), outcomes.failedPods(), logDir, interrupts > 0);
  return interrupts > 0 ? kInterrupted : exitCodeOf(last.phase);
}

}  // namespace jobhost::cli
