// LocalBackend's loop thread: the gang-scheduling pass, starting bound pods (sandbox, PodRun),
// and the PodRuns' status and exit reports turned into pod events.
#include <filesystem>

#include "host/cluster/local/local_backend.h"
#include "host/cluster/local/local_backend_internal.h"
#include "host/common/log.h"

extern char** environ;

namespace jobhost {
using namespace local;

std::vector<std::pair<std::string, std::string>> LocalBackend::hostEnvironment() {
  std::vector<std::pair<std::string, std::string>> env;
  for (char** e = environ; e && *e; ++e) {
    const std::string kv = *e;
    const size_t eq = kv.find('=');
    if (eq != std::string::npos) env.emplace_back(kv.substr(0, eq), kv.substr(eq + 1));
  }
  return env;
}

namespace {

void setEnv(std::vector<std::pair<std::string, std::string>>& env, const std::string& name, const std::string& value) {
  for (auto& [n, v] : env)
    if (n == name) {
      v = value;
      return;
    }
  env.emplace_back(name, value);
}

}  // namespace

ObjectLookup LocalBackend::lookupIn(const std::string& ns) {
  return ObjectLookup{[this, ns](const std::string& name) { return getConfigMap(ns, name); },
                      [this, ns](const std::string& name) { return getSecret(ns, name); }};
}

void LocalBackend::schedulePass() {
  schedulePending_ = false;
  std::vector<std::pair<std::string, std::string>> toStart;  // key, uid
  std::optional<TimeMs> deadline;
  {
    std::lock_guard lock(mutex_);
    std::vector<GangGroup> groups;
    for (const auto& [key, g] : groups_) groups.push_back(g->gang);
    std::vector<GangPod> pods;
    for (const auto& [key, p] : pods_) {
      GangPod gp{key, groups_.count(p->groupKey) ? p->groupKey : "", p->task, p->seq,
                 p->demand, p->slot, p->state.deletionTimestamp.has_value()};
      pods.push_back(std::move(gp));
    }
    const TimeMs now = wallClockMs();
    GangPlan plan = planGangs(capacity_, groups, pods, now);
    deadline = plan.nextDeadline;
    for (auto& g : groups) {
      GroupEntry& entry = *groups_.at(g.key);
      const bool changed = std::find(plan.changedGroups.begin(), plan.changedGroups.end(), g.key) != plan.changedGroups.end();
      entry.gang = g;
      if (!changed) continue;
      const std::string oldPhase = entry.pg.status.phase;
      entry.pg.status.phase = g.phase;
      entry.pg.status.conditions = g.conditions;
      ClusterEvent ev;  // also for conditions alone (the controller acts on phase changes only)
      ev.type = ClusterEvent::Type::PodGroupUpdated;
      ev.oldPodGroupPhase = oldPhase;
      ev.podGroup = std::make_shared<PodGroup>(entry.pg);
      events_.push(std::move(ev));
    }
    for (const auto& key : plan.bind) {
      PodEntry& p = *pods_.at(key);
      p.slot = PodSlot::Active;
      toStart.emplace_back(key, p.state.uid());
    }
  }
  for (const auto& [key, uid] : toStart) startPod(key, uid);
  if (deadline) {
    deadlineTimer_.expires_after(std::chrono::milliseconds(std::max<TimeMs>(0, *deadline - wallClockMs()) + 1));
    deadlineTimer_.async_wait([this](const boost::system::error_code& ec) {
      if (!ec) requestSchedule();
    });
  }
}

void LocalBackend::startPod(const std::string& key, const std::string& uid) {
  PodRunSpec spec;
  PodStatus initial;
  {
    std::lock_guard lock(mutex_);
    auto it = pods_.find(key);
    if (it == pods_.end() || it->second->state.uid() != uid || it->second->state.deletionTimestamp) return;
    PodEntry& p = *it->second;
    spec.pod = p.state.object;
    spec.layout = p.layout;
    spec.hostsFile = hosts_.at(p.jobKey).path();
    initial = p.state.status;
    initial.podIP = p.address;
    initial.nodeName = nodeName_;
    spec.env.podIP = p.address;
    spec.env.base = hostEnv_;
    setEnv(spec.env.base, "HOSTNAME", podHostname(*spec.pod));
    setEnv(spec.env.base, "JOBHOST_POD_IP", p.address);
    setEnv(spec.env.base, "JOBHOST_SANDBOX", p.layout.root);
    setEnv(spec.env.base, "JOBHOST_JOB_DIR", jobDir(p.state.namespace_(), p.jobName) + "/shared");
  }
  const std::string& ns = spec.pod->metadata.namespace_;
  spec.env.pod = spec.pod.get();
  spec.env.nodeName = nodeName_;
  spec.env.nodeCapacity = capacity_;
  spec.env.objects = lookupIn(ns);
  spec.isolation = isolation_;
  spec.gracePeriodSeconds = gracePeriodSeconds(spec.pod->spec, config_.gracePeriodSeconds);
  spec.restartBackoffMs = tuning_.restartBackoffMs;
  spec.maxBackoffMs = tuning_.maxRestartBackoffMs;
  spec.starters = &starters_;
  if (Status st = prepareSandbox(spec.layout, *spec.pod, spec.env.objects, isolation_ != Isolation::None); !st) {
    // Like a kubelet's FailedMount: the pod stays Pending (holding its place) and is retried.
    log::get("local")->warn("pod {}: {}", key, st.message());
    onPodStatus(key, uid, [&] {
      PodStatus s = initial;
      s.reason = "FailedMount";
      s.message = st.message();
      return s;
    }());
    auto retry = std::make_shared<boost::asio::steady_timer>(io_, std::chrono::seconds(1));
    retry->async_wait([this, retry, key, uid](const boost::system::error_code& ec) {
      if (!ec) startPod(key, uid);
    });
    return;
  }
  auto run = std::make_shared<PodRun>(
      io_, std::move(spec), [this, key, uid](const PodStatus& s) { onPodStatus(key, uid, s); },
      [this, key, uid] { onPodGone(key, uid); });
  {
    std::lock_guard lock(mutex_);
    auto it = pods_.find(key);
    if (it == pods_.end() || it->second->state.uid() != uid) return;
    it->second->run = run;
    ++liveRuns_;
    if (it->second->state.deletionTimestamp) boost::asio::post(io_, [run] { run->terminate(); });
  }
  run->start(initial);
}

void LocalBackend::onPodStatus(const std::string& key, const std::string& uid, const PodStatus& status) {
  std::lock_guard lock(mutex_);
  auto it = pods_.find(key);
  if (it == pods_.end() || it->second->state.uid() != uid) return;
  PodEntry& p = *it->second;
  const PodPhase oldPhase = p.state.status.phase;
  const uint64_t oldVersion = p.state.resourceVersion;
  p.state.status = status;
  p.state.resourceVersion = ++version_;
  const PodSlot before = p.slot;
  if (p.run && status.phase == PodPhase::Succeeded) p.slot = PodSlot::Succeeded;
  if (p.run && status.phase == PodPhase::Failed) p.slot = PodSlot::Finished;
  if (!p.state.deletionTimestamp) emitPodUpdated(p, oldPhase, oldVersion);
  if (p.slot != before) requestSchedule();
}

void LocalBackend::onPodGone(const std::string& key, const std::string& uid) {
  {
    std::lock_guard lock(mutex_);
    --liveRuns_;
    auto it = pods_.find(key);
    if (it != pods_.end() && it->second->state.uid() == uid) {
      ClusterEvent ev;
      ev.type = ClusterEvent::Type::PodDeleted;
      ev.pod = it->second->state;
      events_.push(std::move(ev));
      pods_.erase(it);
    }
  }
  runsChanged_.notify_all();
  requestSchedule();
}

}  // namespace jobhost
