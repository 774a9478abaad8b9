// JobEntry counters: every pod contributes +1/-1 to the counters it belongs to, so adding,
// updating or removing a pod is O(log n) and a spec change recomputes everything once.
#include "host/controller/job_cache.h"

#include <charconv>

#include "host/controller/request.h"

namespace jobhost {
namespace {

bool readyForDependents(const PodRecord& r) {
  return r.phase == PodPhase::Succeeded || (r.phase == PodPhase::Running && r.allReady);
}

}  // namespace

void JobEntry::setJob(Job newJob) {
  if (!job || job->metadata.uid != newJob.metadata.uid) podGroup = {};  // another job of the same name
  job = std::move(newJob);
  committedControlled = job->status.controlledResources;
  ++specGeneration_;
  rebuild();
}

void JobEntry::clearJob() {
  job.reset();
  committedControlled.clear();
  podGroup = {};
  ++specGeneration_;
  rebuild();
}

int32_t JobEntry::expectedIndexOf(std::string_view podName, const std::string& task, int32_t taskSlot) const {
  if (!job || taskSlot < 0) return -1;
  const std::string& jobName = job->metadata.name;
  // <job>-<task>-<i>, with i printed like Go's %d (no sign, no leading zeros).
  size_t prefix = jobName.size() + 1 + task.size() + 1;
  if (podName.size() <= prefix || podName.compare(0, jobName.size(), jobName) != 0 ||
      podName[jobName.size()] != '-' || podName.compare(jobName.size() + 1, task.size(), task) != 0 ||
      podName[prefix - 1] != '-')
    return -1;
  std::string_view digits = podName.substr(prefix);
  if (digits.size() > 1 && digits[0] == '0') return -1;
  int32_t index = -1;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), index);
  if (ec != std::errc() || end != digits.data() + digits.size() || index < 0) return -1;
  return index < job->spec.tasks[static_cast<size_t>(taskSlot)].replicas ? index : -1;
}

void JobEntry::intern(const std::string& name, PodRecord& r) {
  auto slot = taskIndex_.find(r.task);
  r.taskSlot = slot == taskIndex_.end() ? -1 : slot->second;
  r.keyCounts = &keyCounts_[r.task];
  r.expectedIndex = expectedIndexOf(name, r.task, r.taskSlot);
}

void JobEntry::accountIdentity(const std::string& name, const PodRecord& r, int sign) {
  r.keyCounts->pods += sign;
  if (r.hasPartition) {
    auto& names = partitions_[r.task][r.partition];
    if (sign > 0)
      names.insert(name);
    else
      names.erase(name);
  }
  if (r.taskSlot < 0) return;
  TaskCounts& t = tasks_[static_cast<size_t>(r.taskSlot)];
  if (r.expectedIndex < 0) {
    if (sign > 0)
      t.unexpected.insert(name);
    else
      t.unexpected.erase(name);
    return;
  }
  if (sign > 0)
    t.missing.erase(r.expectedIndex);
  else
    t.missing.insert(r.expectedIndex);
}

void JobEntry::accountProgress(const std::string& name, const PodRecord& r, int sign) {
  if (r.terminating)
    allTerminating_ += sign;
  else
    allByPhase_[phaseSlot(r.phase)] += sign;
  TaskKeyCounts& key = *r.keyCounts;
  if (r.phase == PodPhase::Succeeded) key.succeeded += sign;
  if (r.phase == PodPhase::Running || r.phase == PodPhase::Pending) key.liveRestarts += sign * r.restarts;
  if (r.taskSlot < 0 || r.expectedIndex < 0) return;
  TaskCounts& t = tasks_[static_cast<size_t>(r.taskSlot)];
  if (readyForDependents(r)) t.ready += sign;
  if (r.terminating) {
    t.terminating += sign;
    return;
  }
  t.byPhase[phaseSlot(r.phase)] += sign;
  if (r.outOfSync) {
    if (sign > 0)
      t.outOfSync.insert(name);
    else
      t.outOfSync.erase(name);
  }
}

void JobEntry::rebuild() {
  taskIndex_.clear();
  tasks_.clear();
  keyCounts_.clear();
  partitions_.clear();
  allByPhase_ = {};
  allTerminating_ = 0;
  if (job) {
    tasks_.resize(job->spec.tasks.size());
    for (size_t i = 0; i < job->spec.tasks.size(); ++i) {
      taskIndex_.emplace(job->spec.tasks[i].name, static_cast<int32_t>(i));
      for (int32_t r = 0; r < job->spec.tasks[i].replicas; ++r) tasks_[i].missing.insert(r);
    }
  }
  for (auto& [name, record] : pods_) {
    intern(name, record);
    accountIdentity(name, record, +1);
    accountProgress(name, record, +1);
  }
}

bool JobEntry::addPod(const std::string& name, PodRecord record) {
  auto [it, fresh] = pods_.try_emplace(name, std::move(record));
  if (!fresh) return false;
  intern(it->first, it->second);
  accountIdentity(it->first, it->second, +1);
  accountProgress(it->first, it->second, +1);
  return true;
}

bool JobEntry::updatePod(const std::string& name, PodRecord record) {
  auto it = pods_.find(name);
  if (it == pods_.end()) return false;
  accountProgress(it->first, it->second, -1);
  accountIdentity(it->first, it->second, -1);
  it->second = std::move(record);
  intern(it->first, it->second);
  accountIdentity(it->first, it->second, +1);
  accountProgress(it->first, it->second, +1);
  return true;
}

void JobEntry::updatePodProgress(const std::string& name, const PodRecord& cached, const PodRecord& progress) {
  PodRecord& r = const_cast<PodRecord&>(cached);  // findPod's record of this entry: ours to change
  accountProgress(name, r, -1);
  r.phase = progress.phase;
  r.terminating = progress.terminating;
  r.outOfSync = progress.outOfSync;
  r.allReady = progress.allReady;
  r.restarts = progress.restarts;
  accountProgress(name, r, +1);
}

bool JobEntry::removePod(const std::string& name) {
  auto it = pods_.find(name);
  if (it == pods_.end()) return false;
  accountProgress(it->first, it->second, -1);
  accountIdentity(it->first, it->second, -1);
  pods_.erase(it);
  return true;
}

const PodRecord* JobEntry::findPod(const std::string& name) const {
  auto it = pods_.find(name);
  return it == pods_.end() ? nullptr : &it->second;
}

bool JobEntry::completed(const TaskKeyCounts& key, int32_t taskSlot) const {
  if (!job || key.pods == 0) return false;
  int32_t replicas = taskSlot >= 0 ? job->spec.tasks[static_cast<size_t>(taskSlot)].replicas : 0;
  return replicas > 0 && key.succeeded >= replicas;
}

bool JobEntry::failed(const TaskKeyCounts& key, int32_t taskSlot) const {
  if (!job || key.pods == 0 || taskSlot < 0) return false;
  const TaskSpec& spec = job->spec.tasks[static_cast<size_t>(taskSlot)];
  if (spec.replicas == 0) return false;  // cache.go: a task without replicas never fails
  int32_t maxRetry = spec.maxRetry;
  if (maxRetry == -1) return false;
  if (maxRetry == 0) maxRetry = 3;
  return key.liveRestarts >= maxRetry;
}

bool JobEntry::taskCompleted(const PodRecord& cached) const { return completed(*cached.keyCounts, cached.taskSlot); }
bool JobEntry::taskFailed(const PodRecord& cached) const { return failed(*cached.keyCounts, cached.taskSlot); }

bool JobEntry::taskCompleted(const std::string& task) const {
  auto key = keyCounts_.find(task);
  auto slot = taskIndex_.find(task);
  return key != keyCounts_.end() && completed(key->second, slot == taskIndex_.end() ? -1 : slot->second);
}

bool JobEntry::taskFailed(const std::string& task) const {
  auto key = keyCounts_.find(task);
  auto slot = taskIndex_.find(task);
  return key != keyCounts_.end() && failed(key->second, slot == taskIndex_.end() ? -1 : slot->second);
}

const std::set<std::string>* JobEntry::partitionPods(const std::string& task, const std::string& id) const {
  auto t = partitions_.find(task);
  if (t == partitions_.end()) return nullptr;
  auto p = t->second.find(id);
  return p == t->second.end() ? nullptr : &p->second;
}

ObjectRef JobCache::refOf(std::string_view key) {
  const size_t slash = key.find('/');
  if (slash == std::string_view::npos) return {std::string_view(), key};
  return {key.substr(0, slash), key.substr(slash + 1)};
}

std::shared_ptr<JobEntry> JobCache::find(const HashedRef& key) const {
  Shard& shard = shardOf(key);
  std::lock_guard lock(shard.mutex);
  auto it = shard.entries.find(key);
  return it == shard.entries.end() ? nullptr : it->second;
}

JobCache::Locked JobCache::lockExisting(ObjectRef ref) const {
  const HashedRef key(ref);
  for (;;) {
    auto entry = find(key);
    if (!entry) return {};
    std::unique_lock lock(entry->mutex);
    if (!entry->erased) return {std::move(entry), std::move(lock)};
  }
}

JobCache::Locked JobCache::lockOrCreate(ObjectRef ref) {
  const HashedRef key(ref);
  Shard& shard = shardOf(key);
  for (;;) {
    std::shared_ptr<JobEntry> entry;
    {
      std::lock_guard lock(shard.mutex);
      auto it = shard.entries.find(key);
      if (it == shard.entries.end()) {
        std::string joined = objectKey(ref.ns, ref.name);
        auto made = std::make_shared<JobEntry>(joined);
        it = shard.entries.emplace(std::move(joined), std::move(made)).first;
      }
      entry = it->second;
    }
    std::unique_lock lock(entry->mutex);
    if (!entry->erased) return {std::move(entry), std::move(lock)};
  }
}

void JobCache::eraseIfEmpty(ObjectRef ref) {
  const HashedRef key(ref);
  Shard& shard = shardOf(key);
  std::lock_guard lock(shard.mutex);
  auto it = shard.entries.find(key);
  if (it == shard.entries.end()) return;
  const std::shared_ptr<JobEntry> entry = it->second;  // outlives its lock below
  std::lock_guard entryLock(entry->mutex);
  if (entry->job || !entry->pods().empty()) return;
  entry->erased = true;
  shard.entries.erase(it);
}

}  // namespace jobhost
