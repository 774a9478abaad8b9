// Controller: the public API (job add/update/delete, commands, snapshots) and the processing
// loop of spec §2: applyPolicies, delayed actions, state execution, retries, TTL.
#include "host/controller/controller.h"

#include <cstdio>

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

/// A fresh report of `req` in `rep`, reusing its strings' storage (one report per worker); the
/// request is copied only when someone observes the reports.
void startReport(HandledRequest& rep, const Request& req, const PolicyDecision& decision, bool observed) {
  if (observed) rep.request = req;
  rep.action = decision.action;
  rep.delayMs = decision.delayMs;
  rep.delayedFire = false;
  rep.error.clear();
  rep.requeued = false;
  rep.retryLimitReached = false;
}

/// The garbage collector's expireAt (§6.7): lastTransitionTime + ttl, where the time is the one
/// its informer decoded from the API server, i.e. in whole seconds.
TimeMs ttlExpiry(const Job& job) {
  const TimeMs finishedMs = job.status.state.lastTransitionTime.value_or(0);
  const TimeMs finished = finishedMs - ((finishedMs % 1000) + 1000) % 1000;
  return finished + int64_t{*job.spec.ttlSecondsAfterFinished} * 1000;
}

Request outOfSync(std::string ns, std::string name) {
  Request req;
  req.namespace_ = std::move(ns);
  req.jobName = std::move(name);
  req.event = std::string(events::OutOfSync);
  return req;
}

}  // namespace

Controller::Controller(const ControllerConfig& config, Clock& clock, ClusterBackend& backend, JobPlugins& plugins)
    : config_(config),
      clock_(clock),
      backend_(backend),
      plugins_(plugins),
      cache_(static_cast<size_t>(config.workers > 0 ? config.workers : 1)),
      actions_(backend, plugins, clock, [this](JobEntry& e, JobPhase previous) { onStatusWritten(e, previous); },
               config.forwardingQueues),
      pool_(static_cast<size_t>(config.workers > 0 ? config.workers : 1), clock),
      inflight_(pool_.size()) {
  backend_.setListener(this);
}

Controller::~Controller() {
  lifeline_->end();
  stop();
  backend_.setListener(nullptr);
}

void Controller::start() {
  pool_.start([this](size_t worker, const Request& req) { process(worker, req); },
              [this](void (*work)(void*), void* arg) { return plugins_.runAbandonable(work, arg); },
              [this](size_t worker, const std::string& why) { takeOver(worker, why); });
}

void Controller::stop() { pool_.stop(); }

Status Controller::submitJob(Job job) {
  if (job.metadata.name.empty()) return Status::error("job has no metadata.name");
  std::string key = jobKeyOf(job.metadata.namespace_, job.metadata.name);
  if (job.metadata.uid.empty()) job.metadata.uid = makeUid(key, ++uidSeq_);
  if (!job.metadata.creationTimestamp) job.metadata.creationTimestamp = clock_.now();
  if (Status st = plugins_.prepare(job); !st) return st;
  Request req = outOfSync(job.metadata.namespace_, job.metadata.name);
  {
    auto entry = cache_.lockOrCreate(key);
    if (entry->job) return Status::error("job " + key + " already exists");
    entry->setJob(std::move(job));
  }
  pool_.add(std::move(req));
  return Status::ok();
}

Status Controller::updateJob(const Job& job) {
  std::string key = jobKeyOf(job.metadata.namespace_, job.metadata.name);
  Job merged;
  bool specChanged = false;
  {
    auto entry = cache_.lockExisting(key);
    if (!entry || !entry->job) return Status::error("job " + key + " not found");
    const ObjectMeta& cached = entry->job->metadata;
    specChanged = !(entry->job->spec == job.spec);
    if (!specChanged && cached.labels == job.metadata.labels && cached.annotations == job.metadata.annotations)
      return Status::ok();
    merged = *entry->job;
  }
  merged.spec = job.spec;
  merged.metadata.labels = job.metadata.labels;
  merged.metadata.annotations = job.metadata.annotations;
  // Prepared again on a metadata change too: a PodGroup made later carries the job's current
  // labels and annotations (Volcano builds it from the cached job), and plugins may read them.
  if (Status st = plugins_.prepare(merged); !st) return st;
  {
    auto entry = cache_.lockExisting(key);
    if (!entry || !entry->job || entry->job->metadata.uid != merged.metadata.uid)
      return Status::error("job " + key + " not found");
    if (!specChanged) {  // cached as Volcano's informer does, but no request
      entry->job->metadata.labels = std::move(merged.metadata.labels);
      entry->job->metadata.annotations = std::move(merged.metadata.annotations);
      return Status::ok();
    }
    merged.status = entry->job->status;
    entry->setJob(std::move(merged));
  }
  pool_.add(outOfSync(job.metadata.namespace_, job.metadata.name));
  return Status::ok();
}

Status Controller::deleteJob(const std::string& ns, const std::string& name) {
  std::string key = jobKeyOf(ns, name);
  std::string uid;
  {
    auto entry = cache_.lockExisting(key);
    if (!entry || !entry->job) return Status::error("job " + key + " not found");
    uid = entry->job->metadata.uid;
    entry->ttlTimer.cancel();
    entry->clearJob();
  }
  delayed_.dropJob(key);
  cache_.eraseIfEmpty(key);
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
    if (req.taskName.empty() && !req.podName.empty())
      if (auto entry = cache_.lockExisting(ObjectRef{req.namespace_, req.jobName}))
        if (const PodRecord* pod = entry->findPod(req.podName)) req.taskName = pod->task;
    pool_.add(std::move(req));
  });
  return Status::ok();
}

std::optional<Job> Controller::getJob(const std::string& ns, const std::string& name) {
  auto entry = cache_.lockExisting(ObjectRef{ns, name});
  if (!entry) return std::nullopt;
  return entry->job;
}

size_t Controller::cachedPodCount(const std::string& ns, const std::string& name) {
  auto entry = cache_.lockExisting(ObjectRef{ns, name});
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

void Controller::process(size_t worker, const Request& req) {
  InFlight& f = inflight_[worker];
  ProcessingScope scope(f.scope);
  f.processed.fetch_add(1, std::memory_order_relaxed);
  delayed_.cancelForPodEvent(req);
  f.entry = cache_.lockExisting(ObjectRef{req.namespace_, req.jobName});
  if (!f.entry || !f.entry->job) {
    f.entry = {};
    return;
  }
  JobEntry& entry = *f.entry;
  f.request = &req;
  f.start = entry.job->status.state.phase;
  f.terminating = false;
  const PolicyDecision decision = decidePolicy(*entry.job, req);
  HandledRequest& rep = f.rep;
  startReport(rep, req, decision, observer_ != nullptr);
  if (decision.delayMs != 0) {
    DelayAction act = delayActionOf(req, decision);
    act.jobUid = entry.job->metadata.uid;
    delayed_.add(act, req, [this](const std::shared_ptr<DelayedActions::Entry>& e) { return armDelayed(e); });
  } else if (Status st = executeStateAction(actions_, entry, f.start, stateActionOf(req, decision.action)); !st) {
    rep.error = st.message();
    handleError(entry, f.start, req, rep, &f.terminating);
  } else {
    pool_.forget(worker, req);
    if (!isInternalAction(decision.action)) delayed_.cleanup(delayActionOf(req, decision));
  }
  finish(f);
}

void Controller::takeOver(size_t worker, const std::string& why) {
  InFlight& f = inflight_[worker];
  if (!f.entry) return;  // not inside a request (cannot happen: plugins are only called by actions)
  JobEntry& entry = *f.entry;
  if (f.scope.undo) f.scope.undo();
  const std::string error = std::string(f.scope.errorPrefix) + why;
  if (f.terminating) {
    log::get("controller")->error("failed to terminate job {}: {}", entry.key(), error);
  } else {
    f.rep.error = error;
    handleError(entry, f.start, *f.request, f.rep);
  }
  finish(f);
}

void Controller::finish(InFlight& f) {
  if (observer_) report(f.rep, *f.entry);
  f.entry = {};  // the observer runs without the job's lock (it may read the job)
  if (observer_) observer_(f.rep);
}

uint64_t Controller::requestsProcessed() const {
  uint64_t n = 0;
  for (const InFlight& f : inflight_) n += f.processed.load(std::memory_order_relaxed);
  return n;
}

void Controller::handleError(JobEntry& entry, JobPhase startPhase, const Request& req, HandledRequest& rep,
                             bool* terminating) {
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
  if (terminating) *terminating = true;
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
    auto entry = cache_.lockExisting(delayed->act.jobKey);
    // Deleted with its job (README deviation 8), even when overwritten in the map and so not dropped there.
    if (!entry || !entry->job || entry->job->metadata.uid != delayed->act.jobUid) return;
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
  const TimeMs due = ttlExpiry(job);
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
    auto entry = cache_.lockExisting(key);
    if (!entry || !entry->job || entry->job->metadata.uid != uid) return;
    const Job& job = *entry->job;
    if (!job.spec.ttlSecondsAfterFinished || !isFinished(job.status.state.phase)) return;
    if (clock_.now() < ttlExpiry(job)) {
      armTtl(*entry);
      return;
    }
    ns = job.metadata.namespace_;
    name = job.metadata.name;
  }
  if (Status st = deleteJob(ns, name); !st) log::get("controller")->warn("ttl: {}", st.message());
}

}  // namespace jobhost
