// The build pipeline: MLPolicy -> PodGroupPolicy -> PodNetwork -> ComponentBuild over one job's
// RuntimeInfo, fail fast, plugins in config order within a point, env conflicts reported.
#pragma once

#include <memory>
#include <vector>

#include "host/common/expected.h"
#include "host/plugin/registry.h"
#include "jobhost/runtime_info.h"

namespace jobhost {

/// What ComponentBuild produced, per plugin (the plugin's onJobAdd sees its own share).
struct BuiltComponents {
  const RegisteredPlugin* plugin = nullptr;
  Components components;
};

/// The pipeline's result for one job. Owns the job snapshot its RuntimeInfo refers to.
struct PipelineResult {
  std::shared_ptr<const Job> job;
  /// Every plugin active for the job with its args (Registry::isActive, argsFor), worked out once,
  /// in registry order.
  std::vector<ActivePlugin> active;
  std::unique_ptr<RuntimeInfo> info;
  std::vector<BuiltComponents> built;
  /// Ok, or the first failure (naming the plugin and point). On failure `info` keeps what the
  /// plugins before the failure changed (Trainer semantics) and `built` is empty.
  Status status;

  const Components& builtBy(const RegisteredPlugin* plugin) const;
  /// The active plugins that run at `point`, in its run order (Registry::activeAt without
  /// working activation and args out again); the pointers live as long as this result.
  std::vector<const ActivePlugin*> activeAt(const Registry& registry, Point point) const;
};

/// The RuntimeInfo a job starts the pipeline with: one pod set per task (template containers,
/// init containers, volumes, replicas, single-pod requests) and the PodGroup of spec §6.2.
std::unique_ptr<RuntimeInfo> newRuntimeInfo(const Job& job, const std::map<std::string, int32_t>& priorities);

/// Runs the four pipeline points for `job` with the plugins the registry activates for it.
/// Errors name the plugin and the point, e.g. `plugin "torch" failed in MLPolicy: ...`.
PipelineResult runPipeline(const Registry& registry, const Job& job,
                                     const std::map<std::string, int32_t>& priorities);

}  // namespace jobhost
