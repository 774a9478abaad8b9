// Rendering a job: hooks run against an ObjectStore instead of a cluster, so `jobhost render`
// shows exactly what the controller would create; objects only built are added after them.
#include "host/plugin/job_render.h"

#include "host/plugin/object_store.h"
#include "host/spec/uid.h"
#include "host/workload/names.h"

namespace jobhost {
namespace {

template <class T>
void addMissing(std::vector<T>& into, const std::vector<T>& from) {
  for (const auto& o : from) {
    bool present = false;
    for (const auto& x : into) present |= x.metadata.name == o.metadata.name;
    if (!present) into.push_back(o);
  }
}

}  // namespace

Expected<RenderedJob> renderJob(PluginJobPlugins& plugins, Job job, bool jobForwarding) {
  if (job.metadata.uid.empty()) job.metadata.uid = stableUid(job.metadata.namespace_, job.metadata.name);
  // As createJobIOIfNotExist: an unnamed volume gets a generated name (no cluster here: no name is
  // taken) and, with a volumeClaim, a PVC; a named claim must already exist.
  std::vector<size_t> createdClaims;
  uint64_t claimSeq = 0;
  for (size_t i = 0; i < job.spec.volumes.size(); ++i) {
    JobVolume& volume = job.spec.volumes[i];
    if (!volume.volumeClaimName.empty()) continue;
    volume.volumeClaimName = generatedClaimName(job, claimSeq++);
    if (volume.volumeClaim) createdClaims.push_back(i);
  }
  if (Status st = plugins.prepare(job); !st) return Expected<RenderedJob>::failure(st.message());
  auto built = plugins.prepared(job);
  if (!built) return Expected<RenderedJob>::failure(built.error());

  if (jobForwarding) job.metadata.annotations.insert_or_assign(std::string(keys::JobForwarding), "true");
  RenderedJob out;
  out.createdClaims = std::move(createdClaims);
  ObjectStore store;
  Job started = job;
  if (Status st = plugins.onJobAdd(started, store); !st) return Expected<RenderedJob>::failure(st.message());
  out.objects = store.objects();
  out.hookCalls = store.calls();
  for (const auto& b : (*built)->built) {
    addMissing(out.objects.configMaps, b.components.configMaps);
    addMissing(out.objects.secrets, b.components.secrets);
    addMissing(out.objects.services, b.components.services);
    addMissing(out.objects.networkPolicies, b.components.networkPolicies);
  }
  auto pg = plugins.makePodGroup(started);
  if (!pg) return Expected<RenderedJob>::failure(pg.error());
  out.podGroup = std::move(*pg);
  std::vector<PodSlot> slots;
  for (size_t t = 0; t < started.spec.tasks.size(); ++t)
    for (int32_t i = 0; i < started.spec.tasks[t].replicas; ++i) slots.push_back(PodSlot{t, i});
  auto pods = plugins.makePods(started, slots, jobForwarding);
  if (!pods) return Expected<RenderedJob>::failure(pods.error());
  out.pods = std::move(*pods);
  out.job = std::move(job);
  return out;
}

}  // namespace jobhost
