// Cluster events to cache updates and requests, as Volcano's informer handlers do (spec §1):
// pod added/updated/deleted, PodGroup phase changes, and the echo of the controller's job writes.
#include <algorithm>
#include <charconv>
#include <cstring>
#include <optional>
#include <stdexcept>
#include <vector>

#include "host/controller/controller.h"
#include "host/workload/names.h"

namespace jobhost {
namespace {

/// A string constant whose length is known at compile time (without the terminating NUL).
template <size_t N>
struct Literal {
  constexpr Literal(const char (&text)[N + 1]) { std::copy_n(text, N, bytes); }
  constexpr Literal(std::string_view text) {
    if (text.size() != N) throw std::length_error("Literal: size mismatch");  // a compile error in constexpr
    std::copy_n(text.begin(), N, bytes);
  }
  char bytes[N];
};
template <size_t M>
Literal(const char (&)[M]) -> Literal<M - 1>;
constexpr Literal kPrefix{"volcano.sh/"};
constexpr Literal kJobKind{"Job"};
constexpr Literal kJobApiVersion{"batch.volcano.sh/v1alpha1"};
constexpr Literal<keys::TaskSpec.size()> kTaskSpec{keys::TaskSpec};
constexpr Literal<keys::JobName.size()> kJobName{keys::JobName};
constexpr Literal<keys::JobVersion.size()> kJobVersion{keys::JobVersion};
constexpr Literal<keys::OutOfSyncMarker.size()> kOutOfSync{keys::OutOfSyncMarker};

/// Annotation and label keys as strings, so map lookups on the event path do not allocate.
const std::string kPartitionKey(keys::PartitionId), kVolcanoPrefix(kPrefix.bytes, sizeof(kPrefix.bytes));

/// Whether `text` starts with / is `lit`: a memcmp of constant length, which the compiler inlines.
template <Literal lit>
bool startsWith(const std::string& text) {
  return text.size() >= sizeof(lit.bytes) && std::memcmp(text.data(), lit.bytes, sizeof(lit.bytes)) == 0;
}
template <Literal lit>
bool is(const std::string& text) {
  return text.size() == sizeof(lit.bytes) && std::memcmp(text.data(), lit.bytes, sizeof(lit.bytes)) == 0;
}

/// The parts of a pod the handlers need; nullopt when it is not a Volcano job's pod. The strings
/// point into the pod, which outlives the facts.
struct PodFacts {
  const std::string* jobName = nullptr;
  const std::string* jobUid = nullptr;
  const std::string* task = nullptr;
  const std::string* partition = nullptr;  // partition-id label, if any
  int32_t version = 0;
  bool outOfSync = false;
};

/// Go's strconv.Atoi (optional sign, decimal digits, int64 range) narrowed to int32 as Go's
/// int32() conversion does (wrapping).
std::optional<int32_t> goAtoiInt32(std::string_view text) {
  const bool plus = !text.empty() && text[0] == '+';
  if (plus) text.remove_prefix(1);
  if (text.empty() || (plus && text[0] == '-')) return std::nullopt;
  int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint64_t>(value)));
}

std::optional<PodFacts> factsOf(const Pod& pod) {
  // isControlledBy: the first controller reference (metav1.GetControllerOf) must be a Volcano Job.
  const OwnerReference* owner = nullptr;
  for (const auto& ref : pod.metadata.ownerReferences)
    if (ref.controller) {
      owner = &ref;
      break;
    }
  if (!owner || !is<kJobKind>(owner->kind) || !is<kJobApiVersion>(owner->apiVersion)) return std::nullopt;
  // One pass over the "volcano.sh/" annotations (a sorted map) instead of a lookup per key,
  // comparing with fixed-length compares the compiler inlines.
  const auto& ann = pod.metadata.annotations;
  const std::string *task = nullptr, *job = nullptr, *version = nullptr;
  PodFacts facts;
  for (auto it = ann.lower_bound(kVolcanoPrefix); it != ann.end() && startsWith<kPrefix>(it->first); ++it) {
    const std::string& key = it->first;
    if (is<kTaskSpec>(key))
      task = &it->second;
    else if (is<kJobName>(key))
      job = &it->second;
    else if (is<kJobVersion>(key))
      version = &it->second;
    else if (is<kOutOfSync>(key))
      facts.outOfSync = true;
  }
  if (!task || !job || !version) return std::nullopt;
  const auto parsed = goAtoiInt32(*version);
  if (!parsed) return std::nullopt;
  facts.version = *parsed;
  facts.jobName = job;
  facts.jobUid = &owner->uid;
  facts.task = task;
  const auto& labels = pod.metadata.labels;
  if (auto it = labels.find(kPartitionKey); it != labels.end()) facts.partition = &it->second;
  return facts;
}

/// The record's progress fields: phase, flags, restarts (no identity strings).
PodRecord progressOf(const PodState& state, const PodFacts& facts) {
  PodRecord r;
  r.phase = state.status.phase;
  r.terminating = state.deletionTimestamp.has_value();
  r.outOfSync = facts.outOfSync;
  for (const auto& c : state.status.containerStatuses) {
    r.restarts += c.restartCount;
    r.allReady = r.allReady && c.ready;
  }
  for (const auto& c : state.status.initContainerStatuses) r.restarts += c.restartCount;
  return r;
}

PodRecord recordOf(const PodState& state, const PodFacts& facts) {
  PodRecord r = progressOf(state, facts);
  r.uid = state.uid();
  r.task = *facts.task;
  if (facts.partition) {
    r.partition = *facts.partition;
    r.hasPartition = true;
  }
  return r;
}

bool sameIdentity(const PodRecord& cached, const PodState& state, const PodFacts& facts) {
  return cached.uid == state.uid() && cached.task == *facts.task && cached.hasPartition == (facts.partition != nullptr) &&
         (!facts.partition || cached.partition == *facts.partition);
}

/// Sets every field of `req` (reusing its strings' storage).
void setRequest(Request& req, std::string_view ns, std::string_view job, std::string_view event) {
  req.namespace_ = ns;
  req.jobName = job;
  req.jobUid.clear();
  req.taskName.clear();
  req.podName.clear();
  req.podUid.clear();
  req.partitionId.clear();
  req.event = event;
  req.action.clear();
  req.exitCode = 0;
  req.jobVersion = 0;
}

bool podRequest(const PodState& state, const PodFacts& facts, std::string_view event, Request& req) {
  setRequest(req, state.namespace_(), *facts.jobName, event);
  req.jobUid = *facts.jobUid;
  req.taskName = *facts.task;
  req.podName = state.name();
  req.podUid = state.uid();
  if (facts.partition) req.partitionId = *facts.partition;
  req.jobVersion = facts.version;
  return true;
}

/// FNV-1 of "ns/name" (the job's worker and cache shard) of the job a cluster event is about;
/// false when it is about no Volcano job.
bool eventJobHash(const ClusterEvent& ev, uint32_t& hash) {
  auto of = [&](std::string_view ns, std::string_view name) {
    hash = jobKeyHash(ns, name);
    return true;
  };
  switch (ev.type) {
    case ClusterEvent::Type::PodAdded:
    case ClusterEvent::Type::PodUpdated:
    case ClusterEvent::Type::PodDeleted: {
      const std::string* job = podJobName(*ev.pod.object);
      return job && of(ev.pod.namespace_(), *job);
    }
    case ClusterEvent::Type::PodGroupUpdated:
      return of(ev.podGroup->metadata.namespace_, podGroupJobName(*ev.podGroup));
    case ClusterEvent::Type::JobChanged:
      return of(ev.namespace_, ev.jobName);
  }
  return false;
}

}  // namespace

void Controller::onClusterEvents(std::span<ClusterEvent> events) {
  std::vector<std::vector<ClusterEvent>> shares(pool_.size());
  for (ClusterEvent& ev : events)
    if (uint32_t hash = 0; eventJobHash(ev, hash)) shares[hash % shares.size()].push_back(std::move(ev));
  for (size_t w = 0; w < shares.size(); ++w)
    if (!shares[w].empty())
      pool_.post(w, [this, w, share = std::move(shares[w])] { applyEvents(w, share); });
}

void Controller::useLanes(LaneSource& source) {
  laneEvents_.resize(pool_.size());
  pool_.useRounds([this, &source](size_t worker) {
    std::vector<ClusterEvent>& events = laneEvents_[worker];  // kept: the lane gets its storage back
    events.clear();
    if (!source.takeLane(worker, events)) return false;
    if (!events.empty()) applyEvents(worker, events);
    return true;
  });
}

void Controller::applyEvents(size_t worker, const std::vector<ClusterEvent>& events) {
  for (const ClusterEvent& ev : events) {
    Request& req = pool_.draft(worker);  // built in its queue slot, whose strings keep their storage
    bool made = false;
    switch (ev.type) {
      case ClusterEvent::Type::PodAdded: made = podAdded(ev.pod, req); break;
      case ClusterEvent::Type::PodUpdated: made = podUpdated(ev, req); break;
      case ClusterEvent::Type::PodDeleted: made = podDeleted(ev.pod, req); break;
      case ClusterEvent::Type::PodGroupUpdated: made = podGroupUpdated(ev, req); break;
      case ClusterEvent::Type::JobChanged:
        setRequest(req, ev.namespace_, ev.jobName, events::OutOfSync);
        made = true;
        break;
    }
    if (made) pool_.addDraft(worker);
  }
}

bool Controller::podAdded(const PodState& pod, Request& req) {
  auto facts = factsOf(*pod.object);
  if (!facts) return false;
  cache_.lockOrCreate(ObjectRef{pod.namespace_(), *facts->jobName})->addPod(pod.name(), recordOf(pod, *facts));
  return podRequest(pod, *facts, facts->outOfSync ? events::OutOfSync : events::PodPending, req);
}

bool Controller::podUpdated(const ClusterEvent& ev, Request& req) {
  const PodState& pod = ev.pod;
  if (pod.resourceVersion == ev.oldResourceVersion) return false;
  auto facts = factsOf(*pod.object);
  if (!facts) return false;
  auto entry = cache_.lockExisting(ObjectRef{pod.namespace_(), *facts->jobName});
  const PodRecord* record = nullptr;
  if (entry) {
    const PodRecord* cached = entry->findPod(pod.name());
    if (cached && sameIdentity(*cached, pod, *facts)) {
      entry->updatePodProgress(pod.name(), *cached, progressOf(pod, *facts));
      record = cached;
    } else if (entry->updatePod(pod.name(), recordOf(pod, *facts))) {
      record = entry->findPod(pod.name());
    }
  }
  auto completed = [&] { return record ? entry->taskCompleted(*record) : entry && entry->taskCompleted(*facts->task); };
  auto failed = [&] { return record ? entry->taskFailed(*record) : entry && entry->taskFailed(*facts->task); };

  std::string_view event = events::OutOfSync;
  int32_t exitCode = 0;
  PodPhase now = pod.status.phase, before = ev.oldPodPhase;
  switch (now) {
    case PodPhase::Failed:
      if (before != PodPhase::Failed) {
        event = events::PodFailed;
        const auto& cs = pod.status.containerStatuses;
        if (!cs.empty() && cs[0].terminated) exitCode = cs[0].terminated->exitCode;
      }
      break;
    case PodPhase::Succeeded:
      if (before != PodPhase::Succeeded && completed()) event = events::TaskCompleted;
      break;
    case PodPhase::Running:  // PodRunning overrides TaskFailed
      if (before != PodPhase::Running)
        event = events::PodRunning;
      else if (failed())
        event = events::TaskFailed;
      break;
    case PodPhase::Pending:
      if (before != PodPhase::Pending)
        event = events::PodPending;
      else if (failed())
        event = events::TaskFailed;
      break;
    case PodPhase::Unknown:
      break;
  }
  if (facts->outOfSync) event = events::OutOfSync;
  podRequest(pod, *facts, event, req);
  req.exitCode = exitCode;
  return true;
}

bool Controller::podDeleted(const PodState& pod, Request& req) {
  auto facts = factsOf(*pod.object);
  if (!facts) return false;
  const ObjectRef key{pod.namespace_(), *facts->jobName};
  bool cached = false, jobless = false;
  if (auto entry = cache_.lockExisting(key)) {
    cached = entry->removePod(pod.name());
    jobless = !entry->job;
  }
  if (jobless) cache_.eraseIfEmpty(key);
  bool outOfSync = facts->outOfSync || !cached;
  return podRequest(pod, *facts, outOfSync ? events::OutOfSync : events::PodEvicted, req);
}

bool Controller::podGroupUpdated(const ClusterEvent& ev, Request& req) {
  const PodGroup& pg = *ev.podGroup;
  const std::string& job = podGroupJobName(pg);
  // The lister's copy: one known to be deleted stays so, and an event of a deleted PodGroup of the
  // same name (a restart recreates it) does not describe the new one.
  if (auto entry = cache_.lockExisting(ObjectRef{pg.metadata.namespace_, job}); entry && entry->podGroup.known &&
      entry->podGroup.phase && entry->podGroup.name == pg.metadata.name &&
      (entry->podGroup.uid.empty() || entry->podGroup.uid == pg.metadata.uid))
    entry->podGroup.phase = pg.status.phase;
  if (pg.status.phase == ev.oldPodGroupPhase) return false;
  setRequest(req, pg.metadata.namespace_, job, pg.status.phase == "Unknown" ? events::JobUnknown : "");
  return true;
}

}  // namespace jobhost
