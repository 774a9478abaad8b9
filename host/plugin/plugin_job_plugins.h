// PluginJobPlugins: the JobPlugins the controller uses with real plugins — the pipeline result
// cached per job, pods and PodGroups built from it, and JobHooks/Status run in config order.
#pragma once

#include <array>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include <boost/unordered/unordered_flat_map.hpp>

#include "host/controller/job_plugins.h"
#include "host/plugin/pipeline.h"
#include "host/plugin/registry.h"

namespace jobhost {

class PluginJobPlugins final : public JobPlugins {
 public:
  PluginJobPlugins(std::shared_ptr<const Registry> registry, std::map<std::string, int32_t> priorities);

  Status prepare(const Job& job) override;
  void forget(const std::string& jobUid) override;
  Expected<std::vector<Pod>> makePods(const Job& job, const std::vector<PodSlot>& slots, bool jobForwarding) override;
  Expected<PodGroup> makePodGroup(const Job& job) override;
  Status onJobAdd(Job& job, ResourceClient& client) override;
  Status onJobUpdate(Job& job, ResourceClient& client) override;
  Status onJobDelete(Job& job, ResourceClient& client) override;
  void updateStatus(const Job& job, JobStatus& status) override;
  /// With a plugin call deadline configured, `work` runs on the calling thread's guard thread.
  Status runAbandonable(void (*work)(void*), void* arg) override;

  /// The prepared pipeline result of a job (prepares it on first use).
  Expected<std::shared_ptr<const PipelineResult>> prepared(const Job& job);
  const Registry& registry() const { return *registry_; }

 private:
  struct Prepared;
  enum class Hook { Add, Update, Delete };
  Status runHook(Hook hook, Job& job, ResourceClient& client);
  Expected<std::shared_ptr<const Prepared>> store(const Job& job);  // prepare() keeping the result
  Expected<std::shared_ptr<const Prepared>> lookup(const Job& job);
  std::shared_ptr<const Prepared> find(const std::string& uid);

  std::shared_ptr<const Registry> registry_;
  std::map<std::string, int32_t> priorities_;
  const bool anyDeadline_;  // some plugin has a callTimeout
  /// Prepared jobs by UID, in shards with a lock each: the workers look a job up on every hook
  /// round and rarely meet on the same shard.
  struct Shard {
    std::mutex mutex;  // held only to find, store or drop an entry
    boost::unordered_flat_map<std::string, std::shared_ptr<const Prepared>, std::hash<std::string>> byUid;
  };
  Shard& shardOf(const std::string& uid) { return prepared_[std::hash<std::string>{}(uid) % prepared_.size()]; }
  std::array<Shard, 64> prepared_;
};

}  // namespace jobhost
