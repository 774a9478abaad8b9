// Controller: Volcano's job controller on a cluster backend — job add/update/delete, commands,
// cluster events to requests, the per-worker processing loop, delayed actions, retries and TTL.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "host/cluster/backend.h"
#include "host/common/expected.h"
#include "host/config/config.h"
#include "host/controller/abandon_scope.h"
#include "host/controller/clock.h"
#include "host/controller/delayed_actions.h"
#include "host/controller/job_actions.h"
#include "host/controller/job_cache.h"
#include "host/controller/job_plugins.h"
#include "host/controller/worker_pool.h"

namespace jobhost {

/// What the controller did with one request, reported to the observer after handling.
struct HandledRequest {
  TimeMs at = 0;
  Request request;             // for a fired delayed action: the request that scheduled it
  std::string action;          // the action applyPolicies chose (on retry limit: the failed one)
  int64_t delayMs = 0;         // > 0: the action was scheduled for later, nothing ran now
  bool delayedFire = false;    // a delayed action's timer expired and the action ran now
  std::string error;           // the action failed with this message
  bool requeued = false;       // ... and the request was requeued with backoff
  bool retryLimitReached = false;  // ... and maxRequeue was exhausted: TerminateJob ran
  JobPhase phase = JobPhase::None;  // after handling
  int32_t retryCount = 0, version = 0;
  int32_t pending = 0, running = 0, succeeded = 0, failed = 0, terminating = 0, unknown = 0;
};
using RequestObserver = std::function<void(const HandledRequest&)>;

/// A bus Command (vcctl job suspend/resume/...). taskName/podName/partition extend Volcano's
/// Command so RestartTask/RestartPod/RestartPartition can name their target; a RestartPod
/// without taskName takes the task of the cached pod.
struct Command {
  std::string namespace_;
  std::string jobName;
  std::string action;
  std::string taskName;
  std::string podName;
  std::string partition;
};

class Controller final : private ClusterListener {
 public:
  /// `clock`, `backend` and `plugins` must outlive the controller.
  Controller(const ControllerConfig& config, Clock& clock, ClusterBackend& backend, JobPlugins& plugins);
  ~Controller();
  Controller(const Controller&) = delete;
  Controller& operator=(const Controller&) = delete;

  /// Set before start(); called on worker threads, one call at a time per job.
  void setObserver(RequestObserver observer) { observer_ = std::move(observer); }
  void start();
  void stop();

  /// Job added (informer): prepares the plugins, caches the job, enqueues OutOfSync. Sets the
  /// UID and creation timestamp when empty. Fails when the job exists or prepare() fails.
  Status submitJob(Job job);
  /// Job updated: a spec change is cached (plugins re-prepared) and enqueues OutOfSync; a change
  /// of labels or annotations only is cached (plugins re-prepared, so a PodGroup created later
  /// carries them) without a request. Fails, leaving the job as it was, when prepare() fails.
  Status updateJob(const Job& job);
  /// Job deleted: the job leaves the cache (its pods' records stay until their deletions are
  /// seen), delayed actions and TTL are cancelled and the backend collects what it owned.
  Status deleteJob(const std::string& ns, const std::string& name);
  /// Queues a command on the command queue (spec §1, Command row).
  Status issueCommand(const Command& command);

  /// A copy of the cached job, or nullopt.
  std::optional<Job> getJob(const std::string& ns, const std::string& name);
  /// Number of cached pod records of a job (tests, memory benchmarks).
  size_t cachedPodCount(const std::string& ns, const std::string& name);
  /// Delayed actions waiting for a job (tests).
  size_t delayedActionCount(const std::string& ns, const std::string& name) const {
    return delayed_.count(jobKeyOf(ns, name));
  }

  /// Deterministic stepping for the sim driver (see WorkerPool rounds): each worker takes its lane
  /// of `source` (lane = workerOf the job) when its round runs out of requests. Before start().
  void useLanes(LaneSource& source);
  /// While open, a worker whose round ran out of requests takes its lane and starts its next
  /// round (the driver settling an instant); while closed, events and later rounds wait.
  void openLanes(bool open) { pool_.openRounds(open); }
  /// Has every worker that has something waiting take its lane and go on with its rounds (lanes
  /// open). `pending(worker)`: whether that worker's lane has something.
  void kickLanes(const std::function<bool(size_t worker)>& pending) { pool_.kick(pending); }
  size_t workers() const { return pool_.size(); }
  /// The worker of job ns/name (Volcano's FNV-1 routing).
  size_t workerOf(std::string_view ns, std::string_view name) const {
    return jobKeyHash(ns, name) % pool_.size();
  }

  /// Requests processed so far (each worker counts its own; fired delayed actions are not requests).
  uint64_t requestsProcessed() const;

  /// Blocks until no request, command or posted task is queued or running.
  void waitForIdle() { pool_.waitForIdle(); }
  bool idle() const { return pool_.idle(); }

  /// The listener the backend reports to (also lets tests inject events). A batch is split by
  /// job and applied by each job's worker before the requests it causes are processed.
  ClusterListener& listener() { return *this; }

 private:
  /// The request a worker is processing: kept outside the processing thread's stack so that the
  /// worker can finish it when that thread is abandoned inside a plugin call.
  struct InFlight {
    JobCache::Locked entry;  // the job, locked while the request is processed
    const Request* request = nullptr;  // its queue slot, never reused once its call is abandoned
    JobPhase start = JobPhase::None;
    bool terminating = false;  // handleError's TerminateJob is running
    HandledRequest rep;        // its request is copied in only for an observer
    AbandonScope scope;
    std::atomic<uint64_t> processed{0};
  };

  void onClusterEvents(std::span<ClusterEvent> events) override;
  /// On the worker that owns the events' jobs: applies them to the cache and queues the requests.
  void applyEvents(size_t worker, const std::vector<ClusterEvent>& events);
  // Each applies one event to the cache and sets `req` to the request to queue (false: none).
  bool podAdded(const PodState& pod, Request& req);
  bool podUpdated(const ClusterEvent& event, Request& req);
  bool podDeleted(const PodState& pod, Request& req);
  bool podGroupUpdated(const ClusterEvent& event, Request& req);

  void process(size_t worker, const Request& req);
  /// Finishes the request of `worker` whose plugin call was abandoned, as if that call failed.
  void takeOver(size_t worker, const std::string& why);
  /// Reports the handled request and releases its job.
  void finish(InFlight& flight);
  void fireDelayed(const std::shared_ptr<DelayedActions::Entry>& entry);
  /// handleJobError: requeue with backoff, or TerminateJob once maxRequeue is used up.
  void handleError(JobEntry& entry, JobPhase startPhase, const Request& req, HandledRequest& report,
                   bool* terminating = nullptr);
  TimerHandle armDelayed(const std::shared_ptr<DelayedActions::Entry>& entry);
  void onStatusWritten(JobEntry& entry, JobPhase previous);
  void armTtl(JobEntry& entry);
  void checkTtl(const std::string& key, const std::string& uid);
  void report(HandledRequest& report, const JobEntry& entry);

  ControllerConfig config_;
  Clock& clock_;
  ClusterBackend& backend_;
  JobPlugins& plugins_;
  RequestObserver observer_;
  JobCache cache_;
  DelayedActions delayed_;
  JobActions actions_;
  WorkerPool pool_;
  std::vector<InFlight> inflight_;       // by worker
  std::vector<std::vector<ClusterEvent>> laneEvents_;  // by worker: the events it took from its lane
  std::shared_ptr<Lifeline> lifeline_ = std::make_shared<Lifeline>();
  std::atomic<uint64_t> uidSeq_{0};
};

}  // namespace jobhost
