// syncJob (spec §5.2): initiate or update hooks, PodGroup, then — once the PodGroup has left
// Pending — create missing pods, delete out-of-sync and stray ones, and write the counted status.
#include "host/controller/job_actions.h"

#include <algorithm>
#include <vector>

#include "host/controller/abandon_scope.h"
#include "host/controller/backend_resource_client.h"
#include "host/spec/uid.h"
#include "host/workload/depends_on.h"
#include "host/workload/names.h"
#include "host/workload/pod_group.h"

namespace jobhost {
namespace {

/// The new status of a sync, one per thread: its task counters' map nodes are reused from sync to
/// sync (only a status write swaps it with the job's).
JobStatus& scratchStatus() {
  thread_local JobStatus status;
  return status;
}

/// A sync's working lists, one set per thread, cleared (not freed) by each sync.
struct SyncScratch {
  std::vector<PhaseCounts> perTask;
  std::vector<PodSlot> missing;
  std::vector<std::pair<size_t, Pod*>> toCreate;
  std::vector<const std::string*> toDelete;
};
SyncScratch& syncScratch(size_t tasks) {
  thread_local SyncScratch scratch;
  scratch.perTask.assign(tasks, PhaseCounts{});
  scratch.missing.clear();
  scratch.toCreate.clear();
  scratch.toDelete.clear();
  return scratch;
}

/// Sets `out` to Volcano's TaskStatusCount of these per-task counters: only the tasks and phases
/// that have pods, tasks of one name summed. Nodes already in `out` are reused.
void setTaskStatusCount(std::map<std::string, TaskState>& out, const JobSpec& spec, const std::vector<PhaseCounts>& perTask) {
  std::vector<std::pair<const std::string*, PhaseCounts>> byName;
  for (size_t i = 0; i < spec.tasks.size(); ++i) {
    auto it = std::find_if(byName.begin(), byName.end(), [&](const auto& e) { return *e.first == spec.tasks[i].name; });
    if (it == byName.end()) it = byName.insert(byName.end(), {&spec.tasks[i].name, PhaseCounts{}});
    for (size_t p = 0; p < kPodPhaseCount; ++p) it->second[p] += perTask[i][p];
  }
  auto empty = [](const PhaseCounts& c) { return std::all_of(c.begin(), c.end(), [](int32_t n) { return n == 0; }); };
  for (auto it = out.begin(); it != out.end();) {
    auto c = std::find_if(byName.begin(), byName.end(), [&](const auto& e) { return *e.first == it->first; });
    it = c == byName.end() || empty(c->second) ? out.erase(it) : std::next(it);
  }
  for (const auto& [name, counts] : byName) {
    if (empty(counts)) continue;
    auto& phases = out[*name].phase;
    for (size_t p = 0; p < kPodPhaseCount; ++p) {
      if (counts[p] != 0)
        phases[static_cast<PodPhase>(p)] = counts[p];
      else
        phases.erase(static_cast<PodPhase>(p));
    }
  }
}

/// Puts back what hooks changed in controlledResources since the last status write.
void restoreControlled(JobEntry& entry) {
  auto& controlled = entry.job->status.controlledResources;
  if (controlled != entry.committedControlled) controlled = entry.committedControlled;
}

bool counterFieldsEqual(const JobStatus& a, const JobStatus& b) {
  return a.state == b.state && a.minAvailable == b.minAvailable && a.taskStatusCount == b.taskStatusCount &&
         a.pending == b.pending && a.running == b.running && a.succeeded == b.succeeded && a.failed == b.failed &&
         a.terminating == b.terminating && a.unknown == b.unknown && a.version == b.version &&
         a.retryCount == b.retryCount && a.runningDurationMs == b.runningDurationMs;
}

void addPhase(JobStatus& s, PodPhase phase, int32_t n) {
  switch (phase) {
    case PodPhase::Pending: s.pending += n; break;
    case PodPhase::Running: s.running += n; break;
    case PodPhase::Succeeded: s.succeeded += n; break;
    case PodPhase::Failed: s.failed += n; break;
    case PodPhase::Unknown: s.unknown += n; break;
  }
}

}  // namespace

void appendJobCondition(JobStatus& status, JobPhase phase, TimeMs at) {
  auto& c = status.conditions;
  c.erase(std::remove_if(c.begin(), c.end(), [&](const JobCondition& x) { return x.status == phase; }), c.end());
  c.push_back(JobCondition{phase, at});
}

void JobActions::commit(JobEntry& entry, JobPhase previous) {
  plugins_.updateStatus(*entry.job, entry.job->status);
  entry.committedControlled = entry.job->status.controlledResources;
  written_(entry, previous);
}

Status JobActions::initiateJob(JobEntry& entry) {
  Job& job = *entry.job;
  if (job.status.state.phase == JobPhase::None) {
    TimeMs now = clock_.now();
    job.status.state.phase = JobPhase::Pending;
    job.status.state.lastTransitionTime = now;
    job.status.minAvailable = job.spec.minAvailable;
    appendJobCondition(job.status, JobPhase::Pending, now);
    commit(entry, JobPhase::None);
  }
  BackendResourceClient client(backend_, job);
  if (Status st = withErrorPrefix("PluginError: ", [&] { return plugins_.onJobAdd(job, client); }); !st) return st;
  if (Status st = withErrorPrefix("PVCError: ", [&] { return createJobIO(entry); }); !st) return st;
  return withErrorPrefix("PodGroupError: ", [&] { return createOrUpdatePodGroup(entry); });
}

Status JobActions::initOnJobUpdate(JobEntry& entry) {
  BackendResourceClient client(backend_, *entry.job);
  if (Status st = withErrorPrefix("PluginError: ", [&] { return plugins_.onJobUpdate(*entry.job, client); }); !st)
    return st;
  return withErrorPrefix("PodGroupError: ", [&] { return createOrUpdatePodGroup(entry); });
}

Status JobActions::createJobIO(JobEntry& entry) {
  Job& job = *entry.job;
  const std::string& ns = job.metadata.namespace_;
  bool specUpdated = false;
  // Volcano names claims on its clone of the job and writes the names back only when every volume
  // is ready, so a failed sync names them afresh next time.
  std::vector<JobVolume> volumes = job.spec.volumes;
  for (auto& volume : volumes) {
    std::string name = volume.volumeClaimName;
    if (name.empty()) {
      do {
        name = generatedClaimName(job, entry.pvcNameSeq++);
      } while (backend_.pvcExists(ns, name));
      volume.volumeClaimName = name;
      specUpdated = true;
      if (volume.volumeClaim) {
        ClusterStatus st = backend_.createPvc(ns, name, job.metadata.uid);
        if (!st.ok()) return Status::error(st.message);
      }
    } else if (!backend_.pvcExists(ns, name)) {
      return Status::error("pvc " + name + " is not found, the job will be in the Pending state until the PVC is created");
    }
    job.status.controlledResources["volume-pvc-" + name] = name;
  }
  if (specUpdated) {
    job.spec.volumes = std::move(volumes);
    if (Status st = plugins_.prepare(job); !st) return st;
    backend_.echoJobChange(ns, job.metadata.name);
  }
  return Status::ok();
}

Status JobActions::createOrUpdatePodGroup(JobEntry& entry) {
  Job& job = *entry.job;
  const std::string& ns = job.metadata.namespace_;
  auto& view = entry.podGroup;
  if (!view.known) {
    view.uid.clear();  // one found existing: its uid is not known here
    view.name = entry.uidPodGroupName();
    view.phase = backend_.podGroupPhase(ns, view.name);
    if (!view.phase && backend_.podGroupPhase(ns, job.metadata.name)) {
      view.name = job.metadata.name;
      view.phase = backend_.podGroupPhase(ns, view.name);
    }
    view.known = view.phase.has_value();
  }
  const std::string& name = view.name;
  if (!view.phase) {
    Expected<PodGroup> pg = plugins_.makePodGroup(job);
    if (!pg) return pg.status();
    pg->metadata.name = name;
    pg->metadata.namespace_ = ns;
    if (pg->metadata.uid.empty()) pg->metadata.uid = newUid();
    ClusterStatus st = backend_.createPodGroup(*pg);
    if (!st.ok() && st.code != ClusterErrc::AlreadyExists) return Status::error(st.message);
    view.uid = st.ok() ? pg->metadata.uid : "";  // AlreadyExists: another one, of unknown uid
    view.phase = backend_.podGroupPhase(ns, name);
    view.known = view.phase.has_value();
    entry.podGroupWrittenGeneration = static_cast<int64_t>(entry.specGeneration());
    return Status::ok();
  }
  if (entry.podGroupWrittenGeneration == static_cast<int64_t>(entry.specGeneration())) return Status::ok();
  auto existing = backend_.getPodGroup(ns, name);
  Expected<PodGroup> desired = plugins_.makePodGroup(job);
  if (!desired) return desired.status();
  if (!existing) return Status::ok();
  PodGroup pg = *existing;
  bool update = updatePodGroup(pg, *desired);
  if (update) {
    ClusterStatus st = backend_.updatePodGroupSpec(pg);
    if (!st.ok()) return Status::error(st.message);
  }
  entry.podGroupWrittenGeneration = static_cast<int64_t>(entry.specGeneration());
  return Status::ok();
}

bool JobActions::dependsOnSatisfied(const JobEntry& entry, size_t taskIndex) const {
  const JobSpec& spec = entry.job->spec;
  const auto& dependsOn = spec.tasks[taskIndex].dependsOn;
  return !dependsOn || dependsOnMet(spec, *dependsOn, [&](size_t i) { return entry.taskCounts(i).ready; });
}

/// Step 2: a job of a queue with extendClusters is annotated job-forwarding=true (Volcano updates
/// the Job; spec and phase are unchanged, so the update brings no request) and its pods marked.
bool JobActions::markForwarding(Job& job) const {
  if (std::find(forwardingQueues_.begin(), forwardingQueues_.end(), job.spec.queue) == forwardingQueues_.end())
    return false;
  job.metadata.annotations.insert_or_assign(std::string(keys::JobForwarding), "true");
  return true;
}

Status JobActions::syncJob(JobEntry& entry, const UpdateStatusFn& fn) {
  Job& job = *entry.job;
  if (job.metadata.deletionTimestamp) return Status::ok();
  const bool jobForwarding = markForwarding(job);
  // Hooks edit controlledResources; like Volcano's deep copy, that reaches the cache only with a
  // status write.
  UndoOnAbandon undo([&entry] { restoreControlled(entry); });
  auto fail = [&](Status st) {
    restoreControlled(entry);
    return st;
  };
  JobPhase phase = job.status.state.phase;
  Status init = (phase == JobPhase::None || phase == JobPhase::Pending) ? initiateJob(entry) : initOnJobUpdate(entry);
  if (!init) return fail(init);

  // The PodGroup as createOrUpdatePodGroup just read it (Volcano fetches it from the lister).
  const std::string& ns = job.metadata.namespace_;
  const auto& pgPhase = entry.podGroup.phase;
  bool syncTask = pgPhase && !pgPhase->empty() && *pgPhase != "Pending";
  if (!syncTask) {
    JobPhase before = job.status.state.phase;
    if (fn) fn(job.status);
    if (job.status.state.phase == before) return fail(Status::ok());
    TimeMs now = clock_.now();
    job.status.state.lastTransitionTime = now;
    appendJobCondition(job.status, job.status.state.phase, now);
    commit(entry, before);
    return Status::ok();
  }

  JobStatus& next = scratchStatus();
  next.state = job.status.state;
  next.minAvailable = job.spec.minAvailable;
  next.pending = next.running = next.succeeded = next.failed = next.terminating = next.unknown = 0;
  next.version = job.status.version;
  next.retryCount = job.status.retryCount;
  next.runningDurationMs.reset();
  next.controlledResources.clear();
  next.conditions.clear();
  auto& [perTask, missing, toCreate, toDelete] = syncScratch(job.spec.tasks.size());
  std::vector<Pod> built;  // the missing pods, built; those to create are moved out of it
  for (size_t i = 0; i < job.spec.tasks.size(); ++i) {
    const TaskCounts& counts = entry.taskCounts(i);
    next.terminating += counts.terminating;
    for (size_t p = 0; p < kPodPhaseCount; ++p) {
      if (counts.byPhase[p] == 0) continue;
      addPhase(next, static_cast<PodPhase>(p), counts.byPhase[p]);
      perTask[i][p] += counts.byPhase[p];
    }
    for (const auto& name : counts.outOfSync) toDelete.push_back(&name);
    for (const auto& name : counts.unexpected) toDelete.push_back(&name);
    for (int32_t index : counts.missing) missing.push_back(PodSlot{i, index});
  }
  if (!missing.empty()) {  // every pod of this round built at once: one plugin deadline guard
    PluginCallSite site("");
    Expected<std::vector<Pod>> made = plugins_.makePods(job, missing, jobForwarding);
    if (!made) return fail(made.status());
    built = std::move(*made);
    // Like Volcano, a task waiting on dependsOn has its pods built (OnPodCreate errors still fail
    // the sync) and only their creation is skipped this round.
    bool create = true;  // the slots come task by task: one dependsOn check per task
    for (size_t k = 0; k < missing.size(); ++k) {
      const size_t task = missing[k].taskIndex;
      if (k == 0 || task != missing[k - 1].taskIndex) create = dependsOnSatisfied(entry, task);
      if (create) toCreate.emplace_back(task, &built[k]);
    }
  }
  int creationErrors = 0;
  std::string creationMessage;
  PodState created;  // reused: its storage is kept from pod to pod
  for (auto& [taskIndex, pod] : toCreate) {
    ClusterStatus st = backend_.createPod(std::move(*pod), &created);
    if (st.code == ClusterErrc::AlreadyExists) continue;
    if (!st.ok()) {
      ++creationErrors;
      creationMessage += (creationMessage.empty() ? "" : "; ") + st.message;
      continue;
    }
    addPhase(next, created.status.phase, 1);
    perTask[taskIndex][phaseSlot(created.status.phase)] += 1;
  }
  // "of N" counts tasks, as Volcano's len(podToCreate), a map with an entry for every task.
  if (creationErrors)
    return fail(Status::error("failed to create " + std::to_string(creationErrors) + " pods of " +
                              std::to_string(job.spec.tasks.size()) + ": " + creationMessage));
  int deletionErrors = 0;
  std::string deletionMessage;
  for (const std::string* name : toDelete) {
    ClusterStatus st = backend_.deletePod(ns, *name);
    if (st.ok() || st.code == ClusterErrc::NotFound) {
      ++next.terminating;
    } else {
      ++deletionErrors;
      deletionMessage += (deletionMessage.empty() ? "" : "; ") + st.message;
    }
  }
  if (deletionErrors)
    return fail(Status::error("failed to delete " + std::to_string(deletionErrors) + " pods of " +
                              std::to_string(toDelete.size()) + ": " + deletionMessage));

  setTaskStatusCount(next.taskStatusCount, job.spec, perTask);
  if (fn) fn(next);
  // An empty taskStatusCount never equals the stored one: Volcano compares a fresh empty map with
  // the nil map the API server returns for it.
  if (!next.taskStatusCount.empty() && counterFieldsEqual(next, job.status)) return fail(Status::ok());
  JobPhase before = job.status.state.phase;
  next.controlledResources = std::move(job.status.controlledResources);
  next.conditions = std::move(job.status.conditions);
  std::swap(job.status, next);  // the old status becomes the scratch: its map nodes are reused
  TimeMs now = clock_.now();
  job.status.state.lastTransitionTime = now;
  appendJobCondition(job.status, job.status.state.phase, now);
  commit(entry, before);
  return Status::ok();
}

}  // namespace jobhost
