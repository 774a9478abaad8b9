// The seven extension points a plugin can implement, in pipeline order, and the host services
// (JobContext, ResourceClient) that JobHooks use. Contracts for every call are stated below.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "jobhost/job.h"
#include "jobhost/objects.h"
#include "jobhost/runtime_info.h"
#include "jobhost/status.h"

namespace jobhost {

/// The plugin's arguments for one job: the config file's default args followed by the job's
/// spec.plugins[<name>] entries, in Go `flag` syntax (parse them with FlagSet, flags.h).
using PluginArgs = std::vector<std::string>;

/// Threading for every interface below: JobHooks and Status run on the job's worker, so two hook
/// calls for one job never overlap; Validation and the pipeline points run on the thread that
/// submits or updates the job (the pipeline also on the worker when the host re-runs it), so a
/// pipeline call for an update may overlap a hook call of the same job (no object is shared).
/// Calls for different jobs run at the same time on different threads, so a plugin keeps no
/// mutable state outside the objects passed to it unless it synchronises it.
/// Errors: return Status::error("what is wrong and how to fix it"). Never let an exception escape;
/// JOBHOST_PLUGIN wraps every call in a barrier that turns one into an error naming the call.

struct FieldError {
  std::string field;    // e.g. "spec.tasks[0].template.spec.containers[0].env"
  std::string message;  // e.g. "must not have reserved envs, invalid envs configured: [RANK]"
};

struct ValidationResult {
  std::vector<std::string> warnings;
  std::vector<FieldError> errors;
};

/// Admission (create and update). Every Validation plugin runs; results are aggregated.
/// `oldJob` is null on create. Append findings to `out`; return an error Status only when the
/// plugin itself cannot work (the job is then rejected with that message too).
class ValidationPlugin {
 public:
  virtual ~ValidationPlugin() = default;
  virtual Status validate(const Job& job, const Job* oldJob, const PluginArgs& args,
                          ValidationResult& out) = 0;
};

/// Pipeline step 1: apply the framework's policy to the pod sets (env, ports, counts).
/// Fail fast: the first error stops the pipeline; changes already made stay in `info`.
class MLPolicyPlugin {
 public:
  virtual ~MLPolicyPlugin() = default;
  virtual Status enforceMLPolicy(RuntimeInfo& info, const PluginArgs& args) = 0;
};

/// Pipeline step 2: gang-scheduling policy: edit info.podGroup and info.scheduler. Fail fast.
class PodGroupPolicyPlugin {
 public:
  virtual ~PodGroupPolicyPlugin() = default;
  virtual Status enforcePodGroupPolicy(RuntimeInfo& info, const PluginArgs& args) = 0;
};

/// Pipeline step 3: pod network identity: subdomain and endpoints of each pod set. Fail fast.
class PodNetworkPlugin {
 public:
  virtual ~PodNetworkPlugin() = default;
  virtual Status identifyPodNetwork(RuntimeInfo& info, const PluginArgs& args) = 0;
};

/// Pipeline step 4: the objects the job needs (Services, ConfigMaps, Secrets, NetworkPolicies).
/// Append to `out`. Fail fast: on error everything this plugin appended is discarded.
class ComponentBuildPlugin {
 public:
  virtual ~ComponentBuildPlugin() = default;
  virtual Status build(const RuntimeInfo& info, const PluginArgs& args, Components& out) = 0;
};

/// Each time the controller writes a job's status (the job becomes Pending, a sync changes its
/// phase or pod counts, a kill) the (single) Status plugin may adjust the status before it is
/// stored. On error the host logs it and keeps the status it computed.
class StatusPlugin {
 public:
  virtual ~StatusPlugin() = default;
  virtual Status updateStatus(const Job& job, JobStatus& status) = 0;
};

enum class ObjectKind { ConfigMap, Secret, Service, NetworkPolicy };
const char* toString(ObjectKind kind);

/// Host-implemented access to the objects of the job's namespace on the cluster backend.
/// Valid only during the hook call that received it. Errors come back as Status.
class ResourceClient {
 public:
  /// Creates each object, or updates it when one of that kind and name exists.
  virtual Status apply(const Components& objects) = 0;
  /// Deletes an object; deleting one that does not exist succeeds (NotFound is OK).
  virtual Status remove(ObjectKind kind, const std::string& name) = 0;
  virtual std::optional<ConfigMap> getConfigMap(const std::string& name) = 0;
  virtual std::optional<Secret> getSecret(const std::string& name) = 0;
  virtual bool exists(ObjectKind kind, const std::string& name) = 0;
  /// Whether ConfigMap `name` exists with exactly `data`, compared where it is stored instead of
  /// copied out (what Volcano's create-or-update asks before it writes). Reads like getConfigMap:
  /// an object that cannot be read is absent (false). Added in ABI 1.1; this default, for clients
  /// that do not override it, compares a getConfigMap copy.
  virtual bool hasConfigMapData(const std::string& name, const std::map<std::string, std::string>& data) {
    const std::optional<ConfigMap> existing = getConfigMap(name);
    return existing && existing->data == data;
  }
  /// A number that changes whenever ConfigMap `name` is written (created or updated) and is never
  /// reused for it, or 0 when it does not exist or this client keeps no versions. A caller that saw
  /// hasConfigMapData true at version V need not compare again while the version is still V (see
  /// volcano::createOrUpdateConfigMap). Added in ABI 1.4; this default keeps no versions.
  virtual uint64_t configMapVersion(const std::string& name) {
    static_cast<void>(name);
    return 0;
  }

 protected:
  ~ResourceClient() = default;
};

/// What a JobHooks call sees of its job. Host-implemented; valid only during the call.
class JobContext {
 public:
  virtual const Job& job() const = 0;
  /// status.controlledResources of the job: plugins keep their "plugin-<name>" marker here.
  virtual std::map<std::string, std::string>& controlledResources() = 0;
  /// The plugin's args for this job (config defaults, then spec.plugins[<name>]).
  virtual const PluginArgs& args() const = 0;
  /// The objects this plugin's ComponentBuild produced for this job (empty if it has none).
  virtual const Components& built() const = 0;
  /// The job's pipeline result (pod sets after every pipeline plugin ran).
  virtual const RuntimeInfo& runtimeInfo() const = 0;
  virtual ResourceClient& resources() = 0;
  /// Upserts an env var into a container of the pod being created, reporting a conflict when
  /// another plugin set the same variable to a different value. Use in onPodCreate.
  virtual void setEnv(Container& container, EnvVar var) = 0;
  /// This plugin's slot for what it derives from the job (parsed args, objects it builds), kept by
  /// the host across the job's hook calls (onJobAdd, onPodCreate, onJobUpdate, onJobDelete) and
  /// released when the job's spec changes or the job is deleted. Use it through jobCache()
  /// (job_cache.h), which rebuilds an entry that no longer matches ctx.job() and ctx.args().
  /// Ownership: the object in the slot is the plugin's (made and deleted by plugin code); the host
  /// releases it on any thread after the job's last hook call. Threading: one slot per job and
  /// plugin; the hook calls of one job never overlap, so it needs no lock. Returns nullptr when the
  /// context keeps nothing between calls (this default, e.g. a test's own JobContext). Never throws
  /// in the host. Added in ABI 1.1.
  virtual std::shared_ptr<void>* pluginData() { return nullptr; }

 protected:
  ~JobContext() = default;
};

/// Volcano's job plugin hooks (spec/volcano-job-controller.md §7.1):
///  onJobAdd    - while the job is Pending (every sync until it runs); create what the job needs.
///  onPodCreate - for each new pod, before it is created; mutate `pod`.
///  onJobUpdate - every sync in other phases.
///  onJobDelete - on every kill (full or targeted); undo onJobAdd.
/// Hooks must be idempotent: keep the marker controlledResources["plugin-<name>"] = "<name>".
/// An error blocks the job's sync; the host retries it with backoff.
class JobHooksPlugin {
 public:
  virtual ~JobHooksPlugin() = default;
  virtual Status onJobAdd(JobContext& ctx) = 0;
  virtual Status onPodCreate(JobContext& ctx, Pod& pod) = 0;
  virtual Status onJobUpdate(JobContext& ctx) = 0;
  virtual Status onJobDelete(JobContext& ctx) = 0;
};

/// Capability bits, reported explicitly in the descriptor (no RTTI across libraries).
enum Capability : unsigned {
  kValidation = 1u << 0,
  kMLPolicy = 1u << 1,
  kPodGroupPolicy = 1u << 2,
  kPodNetwork = 1u << 3,
  kComponentBuild = 1u << 4,
  kStatus = 1u << 5,
  kJobHooks = 1u << 6,
};

}  // namespace jobhost
