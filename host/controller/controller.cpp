// Controller: the public API (job add/update/delete, commands, snapshots) and the processing
// loop of spec §2: applyPolicies, delayed actions, state execution, retries, TTL.
#include "host/controller/controller.h"

#include <cstdio>
#include <mutex>
#include <shared_mutex>

#include "host/common/log.h"
#include "host/controller/job_states.h"

namespace jobhost {
namespace {

std::string makeUid(const std::string& key, uint64_t seq) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%08x-%04x-4000-8000-%012llx", fnv1Hash32(key), static_cast<unsigned>(seq & 0xffff),
                static_cast<unsigned long long>(fnv1Hash32(key + "#" + std::to_string(seq))));
  return buf;
}

}  // namespace

Controller::Controller(const ControllerConfig& config, Clock& clock, ClusterBackend& backend, JobPlugins& plugins)
    : config_(config),
      clock_(clock),
      backend_(backend),
      plugins_(plugins),
      actions_(backend, plugins, clock, [this](JobEntry& e, JobPhase previous) { onStatusWritten(e, previous); }),
      pool_(static_cast<size_t>(config.workers > 0 ? config.workers : 1), clock) {
  backend_.setListener(this);
}

Controller::~Controller() {
  lifeline_->end();
  stop();
  backend_.setListener(nullptr);
}

void Controller::start() {
  pool_.start([this](const Request& req) { process(req); });
}

void Controller::stop() { pool_.stop(); }

Status Controller::submitJob(Job job) {
  if (job.metadata.name.empty()) return Status::error("job has no metadata.name");
  std::string key = jobKeyOf(job.metadata.namespace_, job.metadata.name);
  if (job.metadata.uid.empty()) job.metadata.uid = makeUid(key, ++uidSeq_);
  if (!job.metadata.creationTimestamp) job.metadata.creationTimestamp = clock_.now();
  if (Status st = plugins_.prepare(job); !st) return st;
  {
    std::unique_lock gate(gate_);
    auto entry = cache_.getOrCreate(key);
    std::lock_guard lock(entry->mutex);
    if (entry->job) return Status::error("job " + key + " already exists");
    entry->setJob(std::move(job));
  }
  Request req;
  req.namespace_ = key.substr(0, key.find('/'));
  req.jobName = key.substr(key.find('/') + 1);
  req.event = std::string(events::OutOfSync);
  pool_.add(std::move(req));
  return Status::ok();
}

Status Controller::updateJob(const Job& job) {
  std::string key = jobKeyOf(job.metadata.namespace_, job.metadata.name);
  Job merged;
  {
    std::shared_lock gate(gate_);
    auto entry = cache_.find(key);
    if (!entry) return Status::error("job " + key + " not found");
    std::lock_guard lock(entry->mutex);
    if (!entry->job) return Status::error("job " + key + " not found");
    if (entry->job->spec == job.spec) return Status::ok();
    merged = *entry->job;
  }
  merged.spec = job.spec;
  merged.metadata.labels = job.metadata.labels;
  merged.metadata.annotations = job.metadata.annotations;
  if (Status st = plugins_.prepare(merged); !st) return st;
  {
    std::unique_lock gate(gate_);
    auto entry = cache_.find(key);
    if (!entry) return Status::error("job " + key + " not found");
    std::lock_guard lock(entry->mutex);
    if (!entry->job || entry->job->metadata.uid != merged.metadata.uid) return Status::error("job " + key + " not found");
    merged.status = entry->job->status;
    entry->setJob(std::move(merged));
  }
  Request req;
  req.namespace_ = job.metadata.namespace_;
  req.jobName = job.metadata.name;
  req.event = std::string(events::OutOfSync);
  pool_.add(std::move(req));
  return Status::ok();
}

Status Controller::deleteJob(const std::string& ns, const std::string& name) {
  std::string key = jobKeyOf(ns, name);
  std::string uid;
  {
    std::unique_lock gate(gate_);
    auto entry = cache_.find(key);
    if (!entry) return Status::error("job " + key + " not found");
    {
      std::lock_guard lock(entry->mutex);
      if (!entry->job) return Status::error("job " + key + " not found");
      uid = entry->job->metadata.uid;
      entry->ttlTimer.cancel();
      entry->clearJob();
    }
    delayed_.dropJob(key);
    cache_.eraseIfEmpty(key);
  }
  backend_.deleteOwnedBy(ns, uid);
  plugins_.forget(uid);
  return Status::ok();
}

Status Controller::issueCommand(const Command& command) {
  if (command.action.empty()) return Status::error("command has no action");
  pool_.postCommand([this, command] {
    Request req;
    req.namespace_ = command.namespace_;
    req.jobName = command.jobName;
    req.event = std::string(events::CommandIssued);
    req.action = command.action;
    req.taskName = command.taskName;
    req.podName = command.podName;
    req.partitionId = command.partition;
    if (req.taskName.empty() && !req.podName.empty()) {
      std::shared_lock gate(gate_);
      if (auto entry = cache_.find(req.jobKey()))
        if (const PodRecord* pod = entry->findPod(req.podName)) req.taskName = pod->task;
    }
    pool_.add(std::move(req));
  });
  return Status::ok();
}

std::optional<Job> Controller::getJob(const std::string& ns, const std::string& name) {
  std::shared_lock gate(gate_);
  auto entry = cache_.find(jobKeyOf(ns, name));
  if (!entry) return std::nullopt;
  std::lock_guard lock(entry->mutex);
  return entry->job;
}

size_t Controller::cachedPodCount(const std::string& ns, const std::string& name) {
  std::shared_lock gate(gate_);
  auto entry = cache_.find(jobKeyOf(ns, name));
  return entry ? entry->pods().size() : 0;
}

void Controller::report(HandledRequest& r, const JobEntry& entry) {
  const JobStatus& s = entry.job->status;
  r.at = clock_.now();
  r.phase = s.state.phase;
  r.retryCount = s.retryCount;
  r.version = s.version;
  r.pending = s.pending;
  r.running = s.running;
  r.succeeded = s.succeeded;
  r.failed = s.failed;
  r.terminating = s.terminating;
  r.unknown = s.unknown;
}

void Controller::process(const Request& req) {
  HandledRequest rep;
  {
    std::shared_lock gate(gate_);
    delayed_.cancelForPodEvent(req);
    auto entry = cache_.find(req.jobKey());
    if (!entry) return;
    std::lock_guard lock(entry->mutex);
    if (!entry->job) return;
    JobPhase start = entry->job->status.state.phase;
    DelayAction act = applyPolicies(*entry->job, req);
    rep.request = req;
    rep.action = act.action;
    rep.delayMs = act.delayMs;
    if (act.delayMs != 0) {
      delayed_.add(act, req, [this](const std::shared_ptr<DelayedActions::Entry>& e) { return armDelayed(e); });
    } else if (Status st = executeStateAction(actions_, *entry, start, stateActionOf(act)); !st) {
      rep.error = st.message();
      handleError(*entry, start, req, rep);
    } else {
      pool_.forget(req);
      if (!isInternalAction(act.action)) delayed_.cleanup(act);
    }
    report(rep, *entry);
  }
  if (observer_) observer_(rep);
}

void Controller::handleError(JobEntry& entry, JobPhase startPhase, const Request& req, HandledRequest& rep) {
  log::get("controller")->info("failed to handle job {}: {}", entry.key(), rep.error);
  if (config_.maxRequeue == -1 || pool_.numRequeues(req) < config_.maxRequeue) {
    pool_.addRateLimited(req);
    rep.requeued = true;
    return;
  }
  rep.retryLimitReached = true;
  log::get("controller")->warn("job {} failed on action {} for retry limit reached; terminating", entry.key(),
                               rep.action);
  StateAction terminate;
  terminate.action = std::string(actions::TerminateJob);
  if (Status st = executeStateAction(actions_, entry, startPhase, terminate); !st)
    log::get("controller")->error("failed to terminate job {}: {}", entry.key(), st.message());
  // The request is dropped without queue.Forget (Volcano's handleJobError): its requeue count
  // stays at the limit until the identical request succeeds, so its next failure terminates
  // again at once instead of being retried maxRequeue more times.
}

TimerHandle Controller::armDelayed(const std::shared_ptr<DelayedActions::Entry>& entry) {
  return clock_.schedule(entry->act.delayMs, [this, life = lifeline_, entry] {
    life->run([&] { pool_.post(entry->act.jobKey, [this, entry] { fireDelayed(entry); }); });
  });
}

void Controller::fireDelayed(const std::shared_ptr<DelayedActions::Entry>& delayed) {
  if (delayed->cancelled.load()) return;
  HandledRequest rep;
  {
    std::shared_lock gate(gate_);
    auto entry = cache_.find(delayed->act.jobKey);
    if (!entry) return;
    std::lock_guard lock(entry->mutex);
    if (!entry->job) return;
    JobPhase phase = entry->job->status.state.phase;
    rep.request = delayed->origin;
    rep.action = delayed->act.action;
    rep.delayedFire = true;
    if (Status st = executeStateAction(actions_, *entry, phase, stateActionOf(delayed->act)); !st) {
      rep.error = st.message();
      handleError(*entry, phase, delayed->origin, rep);
    }
    pool_.forget(delayed->origin);
    delayed_.cleanup(delayed->act);
    report(rep, *entry);
  }
  if (observer_) observer_(rep);
}

void Controller::onStatusWritten(JobEntry& entry, JobPhase previous) {
  const Job& job = *entry.job;
  if (job.status.state.phase != previous) backend_.echoJobChange(job.metadata.namespace_, job.metadata.name);
  armTtl(entry);
}

void Controller::armTtl(JobEntry& entry) {
  const Job& job = *entry.job;
  if (!job.spec.ttlSecondsAfterFinished || !isFinished(job.status.state.phase)) return;
  TimeMs due = job.status.state.lastTransitionTime.value_or(0) + int64_t{*job.spec.ttlSecondsAfterFinished} * 1000;
  entry.ttlTimer.cancel();
  std::string key = entry.key();
  std::string uid = job.metadata.uid;
  entry.ttlTimer = clock_.schedule(due - clock_.now(), [this, life = lifeline_, key, uid] {
    life->run([&] { pool_.post(key, [this, key, uid] { checkTtl(key, uid); }); });
  });
}

void Controller::checkTtl(const std::string& key, const std::string& uid) {
  std::string ns, name;
  {
    std::shared_lock gate(gate_);
    auto entry = cache_.find(key);
    if (!entry) return;
    std::lock_guard lock(entry->mutex);
    if (!entry->job || entry->job->metadata.uid != uid) return;
    const Job& job = *entry->job;
    if (!job.spec.ttlSecondsAfterFinished || !isFinished(job.status.state.phase)) return;
    TimeMs due = job.status.state.lastTransitionTime.value_or(0) + int64_t{*job.spec.ttlSecondsAfterFinished} * 1000;
    if (clock_.now() < due) {
      armTtl(*entry);
      return;
    }
    ns = job.metadata.namespace_;
    name = job.metadata.name;
  }
  if (Status st = deleteJob(ns, name); !st) log::get("controller")->warn("ttl: {}", st.message());
}

}  // namespace jobhost
