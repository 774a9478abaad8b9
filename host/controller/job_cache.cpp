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
  job = std::move(newJob);
  ++specGeneration_;
  rebuild();
}

void JobEntry::clearJob() {
  job.reset();
  ++specGeneration_;
  rebuild();
}

int32_t JobEntry::expectedIndexOf(std::string_view podName, const std::string& task) const {
  if (!job) return -1;
  auto it = taskIndex_.find(task);
  if (it == taskIndex_.end()) return -1;
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
  return index < job->spec.tasks[it->second].replicas ? index : -1;
}

void JobEntry::account(const std::string& name, const PodRecord& r, int sign) {
  if (r.terminating)
    allTerminating_ += sign;
  else
    allByPhase_[phaseSlot(r.phase)] += sign;

  TaskKeyCounts& key = keyCounts_[r.task];
  key.pods += sign;
  if (r.phase == PodPhase::Succeeded) key.succeeded += sign;
  if (r.phase == PodPhase::Running || r.phase == PodPhase::Pending) key.liveRestarts += sign * r.restarts;

  if (r.hasPartition) {
    auto& names = partitions_[r.task][r.partition];
    if (sign > 0)
      names.insert(name);
    else
      names.erase(name);
  }

  auto it = taskIndex_.find(r.task);
  if (it == taskIndex_.end()) return;
  TaskCounts& t = tasks_[it->second];
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
      taskIndex_.emplace(job->spec.tasks[i].name, i);
      for (int32_t r = 0; r < job->spec.tasks[i].replicas; ++r) tasks_[i].missing.insert(r);
    }
  }
  for (auto& [name, record] : pods_) {
    record.expectedIndex = expectedIndexOf(name, record.task);
    account(name, record, +1);
  }
}

bool JobEntry::addPod(const std::string& name, PodRecord record) {
  if (pods_.count(name)) return false;
  record.expectedIndex = expectedIndexOf(name, record.task);
  auto it = pods_.emplace(name, std::move(record)).first;
  account(it->first, it->second, +1);
  return true;
}

bool JobEntry::updatePod(const std::string& name, PodRecord record) {
  auto it = pods_.find(name);
  if (it == pods_.end()) return false;
  account(it->first, it->second, -1);
  record.expectedIndex = expectedIndexOf(name, record.task);
  it->second = std::move(record);
  account(it->first, it->second, +1);
  return true;
}

bool JobEntry::updatePodProgress(const std::string& name, const PodRecord& progress) {
  auto it = pods_.find(name);
  if (it == pods_.end()) return false;
  PodRecord& r = it->second;
  account(it->first, r, -1);
  r.phase = progress.phase;
  r.terminating = progress.terminating;
  r.outOfSync = progress.outOfSync;
  r.allReady = progress.allReady;
  r.restarts = progress.restarts;
  account(it->first, r, +1);
  return true;
}

bool JobEntry::removePod(const std::string& name) {
  auto it = pods_.find(name);
  if (it == pods_.end()) return false;
  account(it->first, it->second, -1);
  pods_.erase(it);
  return true;
}

const PodRecord* JobEntry::findPod(const std::string& name) const {
  auto it = pods_.find(name);
  return it == pods_.end() ? nullptr : &it->second;
}

bool JobEntry::taskCompleted(const std::string& task) const {
  if (!job) return false;
  auto key = keyCounts_.find(task);
  if (key == keyCounts_.end() || key->second.pods == 0) return false;
  const TaskSpec* spec = job->findTask(task);
  int32_t replicas = spec ? spec->replicas : 0;
  return replicas > 0 && key->second.succeeded >= replicas;
}

bool JobEntry::taskFailed(const std::string& task) const {
  if (!job) return false;
  auto key = keyCounts_.find(task);
  if (key == keyCounts_.end() || key->second.pods == 0) return false;
  const TaskSpec* spec = job->findTask(task);
  if (!spec || spec->replicas == 0) return false;  // cache.go: a task without replicas never fails
  int32_t maxRetry = spec->maxRetry;
  if (maxRetry == -1) return false;
  if (maxRetry == 0) maxRetry = 3;
  return key->second.liveRestarts >= maxRetry;
}

const std::set<std::string>* JobEntry::partitionPods(const std::string& task, const std::string& id) const {
  auto t = partitions_.find(task);
  if (t == partitions_.end()) return nullptr;
  auto p = t->second.find(id);
  return p == t->second.end() ? nullptr : &p->second;
}

JobCache::Shard& JobCache::shardOf(std::string_view key) const { return shards_[fnv1Hash32(key) % shards_.size()]; }

std::shared_ptr<JobEntry> JobCache::find(std::string_view key) const {
  Shard& shard = shardOf(key);
  std::lock_guard lock(shard.mutex);
  auto it = shard.entries.find(key);
  return it == shard.entries.end() ? nullptr : it->second;
}

JobCache::Locked JobCache::lockExisting(std::string_view key) const {
  for (;;) {
    auto entry = find(key);
    if (!entry) return {};
    std::unique_lock lock(entry->mutex);
    if (!entry->erased) return {std::move(entry), std::move(lock)};
  }
}

JobCache::Locked JobCache::lockOrCreate(std::string_view key) {
  Shard& shard = shardOf(key);
  for (;;) {
    std::shared_ptr<JobEntry> entry;
    {
      std::lock_guard lock(shard.mutex);
      auto it = shard.entries.find(key);
      if (it == shard.entries.end())
        it = shard.entries.emplace(std::string(key), std::make_shared<JobEntry>(std::string(key))).first;
      entry = it->second;
    }
    std::unique_lock lock(entry->mutex);
    if (!entry->erased) return {std::move(entry), std::move(lock)};
  }
}

void JobCache::eraseIfEmpty(std::string_view key) {
  Shard& shard = shardOf(key);
  std::lock_guard lock(shard.mutex);
  auto it = shard.entries.find(key);
  if (it == shard.entries.end()) return;
  JobEntry& entry = *it->second;
  std::lock_guard entryLock(entry.mutex);
  if (entry.job || !entry.pods().empty()) return;
  entry.erased = true;
  shard.entries.erase(it);
}

}  // namespace jobhost
