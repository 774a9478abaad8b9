// renderJob: every object a job creates when it starts — the PodGroup, the objects its plugins'
// OnJobAdd creates (and their ComponentBuild output), and every pod after OnPodCreate.
#pragma once

#include <vector>

#include "host/common/expected.h"
#include "host/plugin/plugin_job_plugins.h"

namespace jobhost {

struct RenderedJob {
  Job job;  // the defaulted job (UID filled in when it had none, claim names generated)
  std::vector<size_t> createdClaims;  // job.spec.volumes indexes whose PVC the job creates
  PodGroup podGroup;
  Components objects;    // each kind in creation order
  std::vector<Pod> pods;  // task order, then index order
  std::vector<std::string> hookCalls;  // resource calls the hooks made, e.g. "apply ConfigMap x-svc"
};

/// Builds what starting `job` creates, without a cluster: runs the pipeline, OnJobAdd against an
/// in-memory object store, and OnPodCreate for each pod. A job without a UID gets stableUid(ns,
/// name) so the output is reproducible. Objects ComponentBuild produced that no hook applied are
/// listed after the applied ones. With `jobForwarding` (the job's queue has extendClusters) the job,
/// its PodGroup and its pods carry job-forwarding=true, as after syncJob's step 2.
Expected<RenderedJob> renderJob(PluginJobPlugins& plugins, Job job, bool jobForwarding = false);

}  // namespace jobhost
