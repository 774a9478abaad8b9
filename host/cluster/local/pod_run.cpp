// PodRun (see pod_run.h): container processes (started on a starter thread), exits, restarts with
// back-off, readiness and the pod phase, on the backend loop. A plain container's leftover processes
// in its group die with its main one; an isolated container's die with its PID namespace.
#include "host/cluster/local/pod_run.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <optional>
#include <string_view>

#include "host/cluster/local/hosts_file.h"
#include "host/cluster/local/native_container.h"

namespace jobhost::local {
namespace asio = boost::asio;

namespace {

void appendToLog(const std::string& file, const std::string& line) {
  int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd < 0) return;
  const std::string text = "jobhost: " + line + "\n";
  if (::write(fd, text.data(), text.size()) < 0) {
    // nothing more to do: the status message carries the same text
  }
  ::close(fd);
}

/// The integer a pod spec field jobhost keeps as unmodelled JSON holds, if it holds one.
std::optional<int64_t> unmodelledInteger(const PodSpec& spec, std::string_view field) {
  for (const auto& [key, json] : spec.unknown) {
    if (key != field) continue;
    int64_t value = 0;
    const auto [end, ec] = std::from_chars(json.data(), json.data() + json.size(), value);
    if (ec == std::errc() && end == json.data() + json.size()) return value;
  }
  return std::nullopt;
}

}  // namespace

PodRun::PodRun(asio::io_context& io, PodRunSpec spec, StatusFn onStatus, GoneFn onGone)
    : io_(io), spec_(std::move(spec)), onStatus_(std::move(onStatus)), onGone_(std::move(onGone)), killTimer_(io), termTimer_(io), deadlineTimer_(io) {
  const PodSpec& ps = spec_.pod->spec;
  for (size_t i = 0; i < ps.initContainers.size(); ++i) {
    Slot& s = inits_.emplace_back();
    s.spec = &ps.initContainers[i];
    s.init = true;
    s.index = i;
  }
  for (size_t i = 0; i < ps.containers.size(); ++i) {
    Slot& s = mains_.emplace_back();
    s.spec = &ps.containers[i];
  }
  // A main container's status sits at its place in name order, as the kubelet lists them.
  std::vector<Slot*> byName;
  for (Slot& s : mains_) byName.push_back(&s);
  std::stable_sort(byName.begin(), byName.end(), [](const Slot* a, const Slot* b) { return a->spec->name < b->spec->name; });
  for (size_t rank = 0; rank < byName.size(); ++rank) byName[rank]->index = rank;
}

void PodRun::start(PodStatus initial) {
  status_ = std::move(initial);
  auto named = [](const std::string& name) {
    ContainerStatus cs;
    cs.name = name;
    return cs;
  };
  for (const auto& s : inits_) status_.initContainerStatuses.push_back(named(s.spec->name));
  status_.containerStatuses.resize(mains_.size());
  for (const auto& s : mains_) status_.containerStatuses[s.index] = named(s.spec->name);
  published_ = status_;
  if (auto deadline = activeDeadlineSeconds(spec_.pod->spec)) {
    deadlineTimer_.expires_after(std::chrono::seconds(*deadline));
    deadlineTimer_.async_wait([this, self = shared_from_this()](const boost::system::error_code& ec) {
      if (!ec) deadlineExceeded();
    });
  }
  if (inits_.empty())
    startMains();
  else
    launch(inits_[0]);
  publish();
}

// As the kubelet: the pod turns Failed first (its containers may still run), then they are stopped
// with the pod's grace period and never restarted; the pod stays until it is deleted.
void PodRun::deadlineExceeded() {
  if (terminating_ || failed_ || status_.phase == PodPhase::Succeeded || status_.phase == PodPhase::Failed) return;
  failPod("DeadlineExceeded", "Pod was active on the node longer than the specified deadline");
  updatePhase();
  publish();
  stopContainers();
}

ContainerStatus& PodRun::statusOf(const Slot& slot) {
  return slot.init ? status_.initContainerStatuses[slot.index] : status_.containerStatuses[slot.index];
}

int gracePeriodSeconds(const PodSpec& spec, int fallback) {
  const auto seconds = unmodelledInteger(spec, "terminationGracePeriodSeconds");
  return seconds && *seconds >= 0 ? static_cast<int>(std::min<int64_t>(*seconds, 24 * 3600)) : fallback;
}

std::optional<int64_t> activeDeadlineSeconds(const PodSpec& spec) {
  const auto seconds = unmodelledInteger(spec, "activeDeadlineSeconds");
  if (!seconds || *seconds <= 0) return std::nullopt;
  return std::min<int64_t>(*seconds, int64_t{100} * 365 * 24 * 3600);
}

bool PodRun::restarts(int32_t exitCode) const {
  const std::string& policy = spec_.pod->spec.restartPolicy;
  if (policy == "Never") return false;
  if (policy == "OnFailure") return exitCode != 0;
  return true;  // Always, and Kubernetes' default
}

void PodRun::startMains() {
  mainsStarted_ = true;
  for (auto& s : mains_) launch(s);
}

void PodRun::launch(Slot& slot) {
  if (terminating_ || failed_) return;
  const Container& c = *slot.spec;
  auto env = containerEnv(c, spec_.env);
  if (!env) {  // like the kubelet: the container waits (CreateContainerConfigError) and is retried
    status_.reason = "CreateContainerConfigError";
    status_.message = "container " + c.name + ": " + env.error();
    publish();
    return retryLater(slot, 1000, false);
  }
  slot.env = std::move(*env);
  if (status_.reason == "CreateContainerConfigError") {
    status_.reason.clear();
    status_.message.clear();
  }
  slot.workingDir = c.workingDir.empty() ? spec_.layout.root : c.workingDir;
  auto start = startOf(c, slot.env, slot.workingDir);
  if (!start) return startFailed(slot, start.error());
  auto log = LogPump::open(io_, spec_.layout.logFile(c.name));
  if (!log) return startFailed(slot, log.error());
  slot.log = std::move(*log);
  start->request.outputFd = slot.log->writeEnd();  // open until onStarted: the start has used it by then
  slot.starting = true;
  asio::post(*spec_.starters, [self = shared_from_this(), s = &slot, start = std::move(*start)]() mutable {
    auto spawned = startContainer(start);  // on a starter thread: touches no member
    auto& io = self->io_;  // the reference moves on: this thread never drops the last one
    asio::post(io, [self = std::move(self), s, spawned = std::move(spawned)]() mutable {
      self->onStarted(*s, std::move(spawned));
    });
  });
}

// What starting the container means under the pod's isolation: native or bwrap (the pod's mounts,
// hostname and /etc/hosts in new namespaces), or plain.
Expected<ContainerStart> PodRun::startOf(const Container& c, const std::vector<std::pair<std::string, std::string>>& env,
                                         const std::string& workingDir) const {
  using R = Expected<ContainerStart>;
  auto mounts = containerMounts(spec_.layout, *spec_.pod, c);
  if (!mounts) return R::failure(mounts.error());
  ContainerStart start;
  start.isolation = spec_.isolation;
  start.request.env = env;
  start.request.argv = containerArgv(c, env);
  if (start.request.argv.empty()) return R::failure("no command: the container sets neither command nor args");
  if (spec_.isolation == Isolation::None)
    start.request.workingDir = workingDir;
  else
    start.sandbox = ContainerSandbox{podHostname(*spec_.pod), spec_.hostsFile, spec_.layout.hostnameFile(),
                                     std::move(*mounts), workingDir};
  return start;
}

void PodRun::onStarted(Slot& slot, Expected<Spawned> spawned) {
  slot.starting = false;
  slot.log->start();
  if (!spawned)  // what a failed start wrote (bwrap's error) goes before jobhost's line
    return afterLogDrained(slot, [this, s = &slot, error = spawned.error()] { startFailed(*s, error); });
  const Container& c = *slot.spec;
  ContainerStatus& cs = statusOf(slot);
  slot.pid = spawned->pid;
  slot.statusFd = spawned->statusFd;
  slot.startedAt = std::chrono::steady_clock::now();
  slot.exited = std::make_unique<asio::posix::stream_descriptor>(io_, spawned->pidfd);
  awaitProcessExit(slot);
  slot.initPid = spawned->initPid;
  if (spawned->initPidfd >= 0) slot.initExited = std::make_unique<asio::posix::stream_descriptor>(io_, spawned->initPidfd);
  if (terminating_) {  // deleted while it started: it never ran for the pod, so no grace period
    killSlot(slot);
    return;
  }
  cs.running = true;
  cs.terminated.reset();
  cs.ready = !slot.init && !readinessProbeOf(c);
  if (auto probe = readinessProbeOf(c); probe && !slot.init) {
    const pid_t nsPid = spec_.isolation == Isolation::Bwrap ? slot.initPid : slot.pid;
    ProbeTarget target{nsPid, spec_.isolation, slot.env, slot.workingDir, status_.podIP};
    const size_t index = slot.index;
    slot.prober = std::make_shared<ReadinessProber>(io_, *probe, std::move(target),
                                                    [this, self = shared_from_this(), index](bool ready) {
                                                      status_.containerStatuses[index].ready = ready;
                                                      publish();
                                                    });
    slot.prober->start();
  }
  updatePhase();
  publish();
}

// The process is reaped (a blocking wait) only once its pidfd polls readable: a wake-up of the
// wait while it still runs (seen under fast restart loops, with pidfd numbers reused) waits again.
void PodRun::awaitProcessExit(Slot& slot) {
  slot.exited->async_wait(asio::posix::stream_descriptor::wait_read,
                          [this, self = shared_from_this(), s = &slot](const boost::system::error_code& ec) {
                            if (ec == asio::error::operation_aborted || !s->exited) return;
                            pollfd exited{s->exited->native_handle(), POLLIN, 0};
                            if (::poll(&exited, 1, 0) != 1) return awaitProcessExit(*s);
                            onProcessExit(*s);
                          });
}

void PodRun::onProcessExit(Slot& slot) {
  ExitInfo exit;
  if (slot.statusFd >= 0) {
    exit = reapNative(slot.pid, slot.statusFd);
    ::close(slot.statusFd);
    slot.statusFd = -1;
  } else {
    exit = reapProcess(slot.pid);
  }
  if (spec_.isolation == Isolation::None) ::kill(-slot.pid, SIGKILL);  // leftovers
  slot.pid = -1;
  slot.exited.reset();
  auto exited = [this, s = &slot, exit] { onExit(*s, exit.exitCode, exit.signal); };
  if (!slot.initExited) return afterLogDrained(slot, exited);
  // bwrap exits as soon as the command does; its namespace's init, killed as bwrap exits
  // (--die-with-parent), then takes what is left in the namespace with it. The exit counts once it has.
  slot.initExited->async_wait(asio::posix::stream_descriptor::wait_read,
                              [this, self = shared_from_this(), s = &slot, exited](const boost::system::error_code&) {
                                s->initExited.reset();
                                s->initPid = -1;
                                afterLogDrained(*s, exited);
                              });
}

// A container's exit is reported once its output is in the log, as `kubectl logs` would show it.
void PodRun::afterLogDrained(Slot& slot, std::function<void()> then) {
  slot.exiting = true;
  slot.log->drainThen([self = shared_from_this(), s = &slot, then = std::move(then)] {
    s->exiting = false;
    then();
  });
}

void PodRun::startFailed(Slot& slot, const std::string& error) {
  appendToLog(spec_.layout.logFile(slot.spec->name), "container " + slot.spec->name + " cannot start: " + error);
  slot.startedAt = std::chrono::steady_clock::now();  // a failed start is a short run: restarts back off
  statusOf(slot).terminated = ContainerStateTerminated{128, 0, "StartError", error};
  onExit(slot, 128, 0);
}

void PodRun::onExit(Slot& slot, int32_t exitCode, int32_t signal) {
  if (slot.prober) {
    slot.prober->stop();
    slot.prober.reset();
  }
  ContainerStatus& cs = statusOf(slot);
  cs.running = false;
  cs.ready = false;
  ContainerStateTerminated t = cs.terminated.value_or(
      ContainerStateTerminated{exitCode, signal, exitCode == 0 ? "Completed" : "Error", ""});
  cs.terminated = t;
  if (slot.init && exitCode == 0 && !terminating_ && !failed_) {
    slot.done = true;
    cs.ready = true;
    if (slot.index + 1 < inits_.size())
      launch(inits_[slot.index + 1]);
    else
      startMains();
  } else if (!terminating_ && !failed_ && restarts(exitCode)) {
    cs.lastTerminated = t;
    cs.terminated.reset();
    const bool ranLong = std::chrono::steady_clock::now() - slot.startedAt > std::chrono::minutes(10);
    slot.backoffMs = ranLong || slot.backoffMs == 0 ? spec_.restartBackoffMs
                                                    : std::min(spec_.maxBackoffMs, slot.backoffMs * 2);
    retryLater(slot, slot.backoffMs, true);
  } else {
    slot.done = true;
    if (slot.init && !terminating_) failPod("Init:Error", "init container " + slot.spec->name + " exited with " +
                                                              std::to_string(exitCode));
  }
  updatePhase();
  publish();
  maybeGone();
}

void PodRun::retryLater(Slot& slot, int delayMs, bool countRestart) {
  slot.retry = std::make_unique<asio::steady_timer>(io_, std::chrono::milliseconds(delayMs));
  slot.retry->async_wait([this, self = shared_from_this(), s = &slot, countRestart](const boost::system::error_code& ec) {
    if (ec || terminating_ || failed_) return;
    if (countRestart) ++statusOf(*s).restartCount;
    launch(*s);
  });
}

void PodRun::failPod(const std::string& reason, const std::string& message) {
  failed_ = true;
  status_.reason = reason;
  status_.message = message;
}

void PodRun::updatePhase() {
  if (failed_) {
    status_.phase = PodPhase::Failed;
    return;
  }
  if (!mainsStarted_) return;
  bool allDone = true, allZero = true, started = false;
  for (const auto& s : mains_) {
    const ContainerStatus& cs = status_.containerStatuses[s.index];
    allDone = allDone && s.done;
    allZero = allZero && cs.terminated && cs.terminated->exitCode == 0;
    started = started || cs.running || cs.terminated || cs.lastTerminated;
  }
  if (allDone)
    status_.phase = allZero ? PodPhase::Succeeded : PodPhase::Failed;
  else if (started)
    status_.phase = PodPhase::Running;
}

void PodRun::publish() {
  if (status_ == published_ || gone_) return;
  published_ = status_;
  onStatus_(status_);
}

void PodRun::terminate() {
  if (terminating_) return maybeGone();
  terminating_ = true;
  stopContainers();
  maybeGone();
}

void PodRun::stopContainers() {
  for (auto* list : {&inits_, &mains_})
    for (auto& s : *list) {
      if (s.retry) s.retry->cancel();
      if (s.prober) s.prober->stop();
    }
  sendTerm();
  killTimer_.expires_after(std::chrono::seconds(spec_.gracePeriodSeconds));
  killTimer_.async_wait([this, self = shared_from_this()](const boost::system::error_code& ec) {
    if (ec) return;
    termTimer_.cancel();
    for (auto* list : {&inits_, &mains_})
      for (auto& s : *list) killSlot(s);
  });
}

// TERM to every container that has not had it; a bwrap container that has not exec'd its command
// yet is tried again shortly, until the grace period ends.
void PodRun::sendTerm() {
  bool pending = false;
  for (auto* list : {&inits_, &mains_})
    for (auto& s : *list)
      if (s.pid > 0 && !s.termSent) {
        s.termSent = signalContainer(s.pid, SIGTERM, spec_.isolation == Isolation::Bwrap ? std::optional(s.initPid)
                                                                                         : std::nullopt) > 0;
        pending = pending || !s.termSent;
      }
  if (!pending) return;
  termTimer_.expires_after(std::chrono::milliseconds(50));
  termTimer_.async_wait([this, self = shared_from_this()](const boost::system::error_code& ec) {
    if (!ec && !gone_) sendTerm();
  });
}

void PodRun::kill() {
  terminate();
  termTimer_.cancel();
  for (auto* list : {&inits_, &mains_})
    for (auto& s : *list) killSlot(s);
}

void PodRun::killSlot(Slot& slot) {
  if (slot.pid > 0 || slot.initExited) killContainer(slot.pid, slot.initExited ? slot.initExited->native_handle() : -1);
}

void PodRun::maybeGone() {
  if (!terminating_ || gone_ || !processIds().empty() || settling()) return;
  killTimer_.cancel();
  termTimer_.cancel();
  deadlineTimer_.cancel();
  gone_ = true;
  onGone_();
}

bool PodRun::settling() const {
  for (const auto* list : {&inits_, &mains_})
    for (const auto& s : *list)
      if (s.starting || s.initExited || s.exiting) return true;
  return false;
}

std::vector<pid_t> PodRun::processIds() const {
  std::vector<pid_t> out;
  for (const auto* list : {&inits_, &mains_})
    for (const auto& s : *list)
      if (s.pid > 0) out.push_back(s.pid);
  return out;
}

}  // namespace jobhost::local
