// LocalBackend construction and shutdown, pods and PodGroups (see local_backend.h). State changes
// happen under mutex_ and push their events there, so events keep the order of the changes.
#include "host/cluster/local/local_backend.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include "host/cluster/gang_readiness.h"
#include "host/cluster/local/local_backend_internal.h"
#include "host/spec/uid.h"
#include "jobhost/job.h"

namespace jobhost {
using namespace local;

namespace {

// A container start mostly waits (its setup child, the command's exec and the init's each wake the
// next process, on CPUs busy with the containers already started), so several per CPU are in
// flight: on 2 CPUs a 64-pod native job of `true` took 48 ms with 2 threads, 45 with 4, 43 with 8,
// and no less with 16 to 64 (bench/local_bench.cpp).
unsigned starterThreads() { return std::clamp(4 * std::thread::hardware_concurrency(), 4U, 32U); }

}  // namespace

Expected<std::unique_ptr<LocalBackend>> LocalBackend::create(const LocalBackendConfig& config, Tuning tuning) {
  using R = Expected<std::unique_ptr<LocalBackend>>;
  std::string dir = config.workDir;
  if (dir.empty()) {
    const char* runtime = ::getenv("XDG_RUNTIME_DIR");
    dir = std::string(runtime && *runtime ? runtime : "/tmp") + "/jobhost";
  }
  std::error_code ec;
  dir = std::filesystem::absolute(dir, ec).lexically_normal().string();
  if (!dir.empty() && dir.back() == '/' && dir.size() > 1) dir.pop_back();
  if (std::filesystem::create_directories(dir, ec)) ::chmod(dir.c_str(), 0700);
  if (ec) return R::failure("local backend: cannot create workDir " + dir + ": " + ec.message());
  auto isolation = resolveIsolation(config.isolation);
  if (!isolation) return R::failure("local backend: " + isolation.error());
  auto loopback = LoopbackAllocator::open(LoopbackAllocator::kLockDir);
  if (!loopback) return R::failure("local backend: " + loopback.error());
  return std::unique_ptr<LocalBackend>(new LocalBackend(config, tuning, dir, *isolation, std::move(*loopback)));
}

LocalBackend::LocalBackend(const LocalBackendConfig& config, Tuning tuning, std::string workDir, Isolation isolation,
                           LoopbackAllocator loopback)
    : config_(config),
      tuning_(tuning),
      workDir_(std::move(workDir)),
      isolation_(isolation),
      capacity_(machineCapacity(config)),
      loopback_(std::move(loopback)),
      starters_(starterThreads()),
      guard_(io_.get_executor()),
      deadlineTimer_(io_) {
  char host[256] = {0};
  nodeName_ = ::gethostname(host, sizeof host - 1) == 0 ? host : "localhost";
  loop_ = std::thread([this] { io_.run(); });
}

LocalBackend::~LocalBackend() {
  events_.setListener(nullptr);
  boost::asio::post(io_, [this] {
    std::vector<std::shared_ptr<PodRun>> runs;
    {
      std::lock_guard lock(mutex_);
      for (auto& [key, entry] : pods_)
        if (entry->run) runs.push_back(entry->run);
    }
    for (auto& run : runs) run->kill();
  });
  {
    std::unique_lock lock(mutex_);
    runsChanged_.wait_for(lock, std::chrono::seconds(30), [&] { return liveRuns_ == 0; });
  }
  starters_.join();  // only now: containers die with the thread that started them
  guard_.reset();
  io_.stop();
  loop_.join();
}

void LocalBackend::setListener(ClusterListener* listener) { events_.setListener(listener); }

std::string LocalBackend::jobDir(const std::string& ns, const std::string& job) const {
  return workDir_ + "/" + (ns.empty() ? "default" : ns) + "/" + job;
}

void LocalBackend::requestSchedule() {
  if (schedulePending_.exchange(true)) return;
  boost::asio::post(io_, [this] { schedulePass(); });
}

void LocalBackend::emitPodUpdated(PodEntry& entry, PodPhase oldPhase, uint64_t oldVersion) {
  ClusterEvent ev;
  ev.type = ClusterEvent::Type::PodUpdated;
  ev.pod = entry.state;
  ev.oldPodPhase = oldPhase;
  ev.oldResourceVersion = oldVersion;
  events_.push(std::move(ev));
}

HostsFile* LocalBackend::hostsFor(const std::string& ns, const std::string& job) {
  const std::string key = objectKey(ns, job);
  if (auto it = hosts_.find(key); it != hosts_.end()) return &it->second;
  std::error_code ec;
  std::filesystem::create_directories(jobDir(ns, job) + "/shared", ec);
  auto file = HostsFile::create(jobDir(ns, job) + "/hosts");
  if (!file) return nullptr;
  return &hosts_.emplace(key, std::move(*file)).first->second;
}

ClusterStatus LocalBackend::createPod(Pod pod, PodState* created) {
  std::lock_guard lock(mutex_);
  const std::string& ns = pod.metadata.namespace_;
  const std::string key = objectKey(ns, pod.metadata.name);
  if (pods_.count(key)) return ClusterStatus::fail(ClusterErrc::AlreadyExists, "pods \"" + pod.metadata.name + "\" already exists");
  auto object = std::make_shared<Pod>(pod);
  if (object->metadata.uid.empty()) object->metadata.uid = newUid();
  object->metadata.creationTimestamp = wallClockMs();
  object->status = PodStatus{};
  auto entry = std::make_unique<PodEntry>();
  const auto& ann = object->metadata.annotations;
  auto job = ann.find(std::string(keys::JobName));
  entry->jobName = job != ann.end() ? job->second : object->metadata.name;
  entry->jobKey = objectKey(ns, entry->jobName);
  if (auto g = ann.find(std::string(keys::GroupName)); g != ann.end()) entry->groupKey = objectKey(ns, g->second);
  entry->task = taskOfPod(*object);
  entry->seq = ++seq_;
  entry->demand = podDemand(object->spec);
  entry->layout = SandboxLayout{jobDir(ns, entry->jobName) + "/" + object->metadata.name, workDir_ + "/" + (ns.empty() ? "default" : ns) + "/pvc"};
  entry->address = loopback_.assign(entry->jobKey, podHostname(*object));
  HostsFile* hosts = hostsFor(ns, entry->jobName);
  if (!hosts) return ClusterStatus::fail(ClusterErrc::Failed, "cannot write the hosts file under " + jobDir(ns, entry->jobName));
  Status st = hosts->add(entry->address, podHostNames(*object));
  for (const auto& [skey, service] : services_)
    if (st && selects(service, *object)) st = hosts->add(entry->address, serviceHostNames(service));
  if (!st) return ClusterStatus::fail(ClusterErrc::Failed, st.message());
  entry->state.object = std::move(object);
  entry->state.resourceVersion = ++version_;
  if (created) *created = entry->state;
  ClusterEvent ev;
  ev.type = ClusterEvent::Type::PodAdded;
  ev.pod = entry->state;
  events_.push(std::move(ev));
  pods_.emplace(key, std::move(entry));
  requestSchedule();
  return ClusterStatus::success();
}

void LocalBackend::beginDeletion(PodEntry& entry) {
  if (entry.state.deletionTimestamp) return;
  const uint64_t oldVersion = entry.state.resourceVersion;
  entry.state.deletionTimestamp = wallClockMs();
  entry.state.resourceVersion = ++version_;
  const std::string key = objectKey(entry.state.namespace_(), entry.state.name());
  if (!entry.run) {  // never started: nothing to stop
    ClusterEvent ev;
    ev.type = ClusterEvent::Type::PodDeleted;
    ev.pod = entry.state;
    events_.push(std::move(ev));
    pods_.erase(key);
    requestSchedule();
    return;
  }
  emitPodUpdated(entry, entry.state.status.phase, oldVersion);
  boost::asio::post(io_, [run = entry.run] { run->terminate(); });
}

ClusterStatus LocalBackend::deletePod(const std::string& ns, const std::string& name) {
  std::lock_guard lock(mutex_);
  auto it = pods_.find(objectKey(ns, name));
  if (it == pods_.end()) return ClusterStatus::fail(ClusterErrc::NotFound, "pods \"" + name + "\" not found");
  beginDeletion(*it->second);
  return ClusterStatus::success();
}

ClusterStatus LocalBackend::annotatePod(const std::string& ns, const std::string& name, const std::string& key,
                                        const std::string& value) {
  std::lock_guard lock(mutex_);
  auto it = pods_.find(objectKey(ns, name));
  if (it == pods_.end()) return ClusterStatus::fail(ClusterErrc::NotFound, "pods \"" + name + "\" not found");
  PodEntry& entry = *it->second;
  auto object = std::make_shared<Pod>(*entry.state.object);
  object->metadata.annotations[key] = value;
  const uint64_t oldVersion = entry.state.resourceVersion;
  entry.state.object = std::move(object);
  entry.state.resourceVersion = ++version_;
  emitPodUpdated(entry, entry.state.status.phase, oldVersion);
  return ClusterStatus::success();
}

ClusterStatus LocalBackend::createPodGroup(const PodGroup& pg) {
  std::lock_guard lock(mutex_);
  const std::string key = objectKey(pg.metadata.namespace_, pg.metadata.name);
  if (groups_.count(key)) return ClusterStatus::fail(ClusterErrc::AlreadyExists, "podgroups \"" + pg.metadata.name + "\" already exists");
  auto entry = std::make_unique<GroupEntry>();
  entry->pg = pg;
  if (entry->pg.metadata.uid.empty()) entry->pg.metadata.uid = newUid();
  entry->pg.metadata.creationTimestamp = wallClockMs();
  if (entry->pg.status.phase.empty()) entry->pg.status.phase = "Pending";
  entry->gang.key = key;
  entry->gang.seq = ++seq_;
  entry->gang.since = wallClockMs();
  entry->gang.phase = entry->pg.status.phase;
  setGangSpec(entry->gang, pg.spec);
  groups_.emplace(key, std::move(entry));
  requestSchedule();
  return ClusterStatus::success();
}

ClusterStatus LocalBackend::updatePodGroupSpec(const PodGroup& pg) {
  std::lock_guard lock(mutex_);
  auto it = groups_.find(objectKey(pg.metadata.namespace_, pg.metadata.name));
  if (it == groups_.end()) return ClusterStatus::fail(ClusterErrc::NotFound, "podgroups \"" + pg.metadata.name + "\" not found");
  GroupEntry& g = *it->second;
  g.pg.spec = pg.spec;
  setGangSpec(g.gang, pg.spec);
  requestSchedule();
  return ClusterStatus::success();
}

ClusterStatus LocalBackend::deletePodGroup(const std::string& ns, const std::string& name) {
  std::lock_guard lock(mutex_);
  if (groups_.erase(objectKey(ns, name)) == 0)
    return ClusterStatus::fail(ClusterErrc::NotFound, "podgroups \"" + name + "\" not found");
  requestSchedule();
  return ClusterStatus::success();
}

std::optional<PodGroup> LocalBackend::getPodGroup(const std::string& ns, const std::string& name) {
  std::lock_guard lock(mutex_);
  auto it = groups_.find(objectKey(ns, name));
  if (it == groups_.end()) return std::nullopt;
  return it->second->pg;
}

std::optional<std::string> LocalBackend::podGroupPhase(const std::string& ns, const std::string& name) {
  std::lock_guard lock(mutex_);
  auto it = groups_.find(objectKey(ns, name));
  if (it == groups_.end()) return std::nullopt;
  return it->second->pg.status.phase;
}

void LocalBackend::echoJobChange(const std::string& ns, const std::string& name) {
  std::lock_guard lock(mutex_);
  ClusterEvent ev;
  ev.type = ClusterEvent::Type::JobChanged;
  ev.namespace_ = ns;
  ev.jobName = name;
  events_.push(std::move(ev));
}

}  // namespace jobhost
