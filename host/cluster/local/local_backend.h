// LocalBackend: the ClusterBackend of `jobhost run` — pods are real process groups on this machine
// (isolated in namespaces when possible), admitted by a gang scheduler against the machine's
// capacity, with per-pod sandboxes, loopback addresses and /etc/hosts. See README.md in this folder.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/thread_pool.hpp>

#include "host/cluster/backend.h"
#include "host/cluster/local/capacity.h"
#include "host/cluster/local/event_stream.h"
#include "host/cluster/local/gang_scheduler.h"
#include "host/cluster/local/hosts_file.h"
#include "host/cluster/local/isolation.h"
#include "host/cluster/local/loopback.h"
#include "host/cluster/local/pod_run.h"
#include "host/cluster/local/sandbox.h"
#include "host/common/expected.h"
#include "host/config/config.h"

namespace jobhost {

class LocalBackend final : public ClusterBackend {
 public:
  /// Knobs tests turn; production uses the defaults.
  struct Tuning {
    int restartBackoffMs = 1000;
    int maxRestartBackoffMs = 30000;
  };

  /// Creates the work dir (0700), takes a loopback block and resolves the isolation mode. Errors
  /// name the work dir or the isolation setting.
  static Expected<std::unique_ptr<LocalBackend>> create(const LocalBackendConfig& config, Tuning tuning);
  static Expected<std::unique_ptr<LocalBackend>> create(const LocalBackendConfig& config) {
    return create(config, Tuning{});
  }
  /// Kills every process still running (SIGKILL), waits for them, then stops the threads.
  ~LocalBackend() override;

  void setListener(ClusterListener* listener) override;
  ClusterStatus createPod(Pod pod, PodState* created) override;
  ClusterStatus deletePod(const std::string& ns, const std::string& name) override;
  ClusterStatus annotatePod(const std::string& ns, const std::string& name, const std::string& key,
                            const std::string& value) override;
  ClusterStatus createPodGroup(const PodGroup& pg) override;
  ClusterStatus updatePodGroupSpec(const PodGroup& pg) override;
  ClusterStatus deletePodGroup(const std::string& ns, const std::string& name) override;
  std::optional<PodGroup> getPodGroup(const std::string& ns, const std::string& name) override;
  std::optional<std::string> podGroupPhase(const std::string& ns, const std::string& name) override;
  ClusterStatus createPvc(const std::string& ns, const std::string& name, const std::string& ownerUid) override;
  bool pvcExists(const std::string& ns, const std::string& name) override;
  ClusterStatus applyObjects(const std::string& ns, const Components& objects) override;
  ClusterStatus removeObject(const std::string& ns, ObjectKind kind, const std::string& name) override;
  std::optional<ConfigMap> getConfigMap(const std::string& ns, const std::string& name) override;
  std::optional<Secret> getSecret(const std::string& ns, const std::string& name) override;
  bool hasConfigMapData(const std::string& ns, const std::string& name,
                        const std::map<std::string, std::string>& data) override;
  uint64_t configMapVersion(const std::string& ns, const std::string& name) override;
  bool objectExists(const std::string& ns, ObjectKind kind, const std::string& name) override;
  void deleteOwnedBy(const std::string& ns, const std::string& ownerUid) override;
  void echoJobChange(const std::string& ns, const std::string& name) override;

  // Local extras (progress view, `jobhost run`, tests). Thread-safe; not from listener callbacks
  // where noted.
  const std::string& workDir() const { return workDir_; }
  /// <workDir>/<ns>/<job>: the job's pods' sandboxes, its hosts file and shared/ (JOBHOST_JOB_DIR).
  std::string jobDir(const std::string& ns, const std::string& job) const;
  local::Isolation isolation() const { return isolation_; }
  const local::Resources& capacity() const { return capacity_; }
  /// The pods whose volcano.sh/job-name is `job`, in creation order.
  std::vector<PodState> jobPods(const std::string& ns, const std::string& job) const;
  /// Process groups of every running container. Not from the loop or listener thread.
  std::vector<pid_t> processIds();
  /// SIGKILL to every container now (a second Ctrl-C). Pods then report as usual.
  void killAll();
  /// Waits until every event so far reached the listener (tests).
  void flushEvents() { events_.flush(); }

 private:
  struct PodEntry;
  struct GroupEntry;
  LocalBackend(const LocalBackendConfig& config, Tuning tuning, std::string workDir, local::Isolation isolation,
               local::LoopbackAllocator loopback);

  // All with mutex_ held.
  void emitPodUpdated(PodEntry& entry, PodPhase oldPhase, uint64_t oldVersion);
  void beginDeletion(PodEntry& entry);
  local::HostsFile* hostsFor(const std::string& ns, const std::string& job);
  void requestSchedule();
  local::ObjectLookup lookupIn(const std::string& ns);

  /// jobhost's environment, the base of every container's (read once).
  static std::vector<std::pair<std::string, std::string>> hostEnvironment();

  // Loop thread.
  void schedulePass();
  void startPod(const std::string& key, const std::string& uid);
  void onPodStatus(const std::string& key, const std::string& uid, const PodStatus& status);
  void onPodGone(const std::string& key, const std::string& uid);

  LocalBackendConfig config_;
  Tuning tuning_;
  std::string workDir_;
  local::Isolation isolation_;
  local::Resources capacity_;
  std::string nodeName_;
  std::vector<std::pair<std::string, std::string>> hostEnv_ = hostEnvironment();

  mutable std::mutex mutex_;
  std::condition_variable runsChanged_;
  std::map<std::string, std::unique_ptr<PodEntry>> pods_;  // "<ns>/<name>"
  std::map<std::string, std::unique_ptr<GroupEntry>> groups_;
  std::map<std::string, ConfigMap> configMaps_;
  std::map<std::string, uint64_t> configMapVersions_;  // same keys, from configMapWrites_ on each write
  uint64_t configMapWrites_ = 0;
  std::map<std::string, Secret> secrets_;
  std::map<std::string, Service> services_;
  std::map<std::string, NetworkPolicy> networkPolicies_;
  std::map<std::string, std::string> pvcs_;  // key -> owner UID
  std::map<std::string, local::HostsFile> hosts_;  // by job key
  local::LoopbackAllocator loopback_;
  uint64_t seq_ = 0, version_ = 0, uidSeq_ = 0;
  size_t liveRuns_ = 0;
  std::atomic<bool> schedulePending_{false};

  local::EventStream events_;
  boost::asio::thread_pool starters_;  // container starts (PodRun), so that they overlap
  boost::asio::io_context io_;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> guard_;
  boost::asio::steady_timer deadlineTimer_;
  std::thread loop_;
};

}  // namespace jobhost
