// Kubernetes JSON for the Volcano Job: spec (tasks, policies, plugins, volumes, partitions) and
// status (state, counters, taskStatusCount, conditions), durations in Go form.
#include "host/spec/duration.h"
#include "host/spec/encode.h"
#include "host/spec/encode_parts.h"

namespace jobhost {
namespace {

using Value = rapidjson::Value;

Value encodePolicy(const LifecyclePolicy& p, JsonAllocator& a) {
  JsonObject out(a);
  out.stringIfSet("action", p.action)
      .stringIfSet("event", p.event)
      .setIfSet("events", jsonStrings(p.events, a))
      .integerIfSet("exitCode", p.exitCode);
  if (p.timeout) out.string("timeout", formatGoDuration(*p.timeout));
  return out.take();
}

Value encodePartitionPolicy(const PartitionPolicy& p, JsonAllocator& a) {
  JsonObject out(a);
  out.integer("totalPartitions", p.totalPartitions).integer("partitionSize", p.partitionSize);
  if (p.networkTopology) out.set("networkTopology", encodeNetworkTopology(*p.networkTopology, a));
  return out.integer("minPartitions", p.minPartitions).take();
}

Value encodeTask(const TaskSpec& t, JsonAllocator& a) {
  JsonObject out(a);
  out.stringIfSet("name", t.name)
      .integer("replicas", t.replicas)
      .integerIfSet("minAvailable", t.minAvailable)
      .set("template", encodePodTemplateSpec(t.template_, a))
      .setIfSet("policies", jsonArray(t.policies, a, encodePolicy))
      .stringIfSet("topologyPolicy", t.topologyPolicy)
      .integerIfSet("maxRetry", t.maxRetry);
  if (const auto& d = t.dependsOn)
    out.set("dependsOn",
            JsonObject(a).setIfSet("name", jsonStrings(d->name, a)).stringIfSet("iteration", d->iteration).take());
  if (t.partitionPolicy) out.set("partitionPolicy", encodePartitionPolicy(*t.partitionPolicy, a));
  return out.merge(t.unknown).take();
}

Value encodeJobVolume(const JobVolume& v, JsonAllocator& a) {
  JsonObject out(a);
  out.string("mountPath", v.mountPath).stringIfSet("volumeClaimName", v.volumeClaimName);
  if (v.volumeClaim) out.set("volumeClaim", jsonFromText(*v.volumeClaim, a));
  return out.take();
}

Value encodePlugins(const std::map<std::string, std::vector<std::string>>& plugins, JsonAllocator& a) {
  Value out(rapidjson::kObjectType);
  for (const auto& [name, args] : plugins) out.AddMember(jsonString(name, a), jsonStrings(args, a), a);
  return out;
}

Value encodeJobSpec(const JobSpec& s, JsonAllocator& a) {
  JsonObject out(a);
  out.stringIfSet("schedulerName", s.schedulerName)
      .integerIfSet("minAvailable", s.minAvailable)
      .setIfSet("volumes", jsonArray(s.volumes, a, encodeJobVolume))
      .setIfSet("tasks", jsonArray(s.tasks, a, encodeTask))
      .setIfSet("policies", jsonArray(s.policies, a, encodePolicy))
      .setIfSet("plugins", encodePlugins(s.plugins, a));
  if (s.runningEstimate) out.string("runningEstimate", formatGoDuration(*s.runningEstimate));
  out.stringIfSet("queue", s.queue)
      .integerIfSet("maxRetry", s.maxRetry)
      .integerIfSet("ttlSecondsAfterFinished", s.ttlSecondsAfterFinished)
      .stringIfSet("priorityClassName", s.priorityClassName)
      .integerIfSet("minSuccess", s.minSuccess);
  if (s.networkTopology) out.set("networkTopology", encodeNetworkTopology(*s.networkTopology, a));
  return out.merge(s.unknown).take();
}

Value encodeTaskStatusCount(const std::map<std::string, TaskState>& counts, JsonAllocator& a) {
  Value out(rapidjson::kObjectType);
  for (const auto& [task, state] : counts) {
    Value phases(rapidjson::kObjectType);
    for (const auto& [phase, count] : state.phase)
      phases.AddMember(jsonString(toString(phase), a), Value(count), a);
    out.AddMember(jsonString(task, a), JsonObject(a).setIfSet("phase", std::move(phases)).take(), a);
  }
  return out;
}

Value encodeCondition(const JobCondition& c, JsonAllocator& a) {
  return JsonObject(a).string("status", toString(c.status)).timeIfSet("lastTransitionTime", c.lastTransitionTime).take();
}

}  // namespace

Value encodeJobStatus(const JobStatus& s, JsonAllocator& a) {
  Value state = JsonObject(a)
                    .stringIfSet("phase", toString(s.state.phase))
                    .stringIfSet("reason", s.state.reason)
                    .stringIfSet("message", s.state.message)
                    .timeIfSet("lastTransitionTime", s.state.lastTransitionTime)
                    .take();
  JsonObject out(a);
  out.set("state", std::move(state))
      .integerIfSet("minAvailable", s.minAvailable)
      .setIfSet("taskStatusCount", encodeTaskStatusCount(s.taskStatusCount, a))
      .integerIfSet("pending", s.pending)
      .integerIfSet("running", s.running)
      .integerIfSet("succeeded", s.succeeded)
      .integerIfSet("failed", s.failed)
      .integerIfSet("terminating", s.terminating)
      .integerIfSet("unknown", s.unknown)
      .integerIfSet("version", s.version)
      .integerIfSet("retryCount", s.retryCount);
  if (s.runningDurationMs) out.string("runningDuration", formatGoDuration(Duration{*s.runningDurationMs}));
  return out.setIfSet("controlledResources", jsonStringMap(s.controlledResources, a))
      .setIfSet("conditions", jsonArray(s.conditions, a, encodeCondition))
      .take();
}

Value encodeJob(const Job& job, JsonAllocator& a) {
  JsonObject out(a);
  out.string("apiVersion", job.apiVersion)
      .string("kind", job.kind)
      .set("metadata", encodeObjectMeta(job.metadata, a))
      .set("spec", encodeJobSpec(job.spec, a));
  if (!(job.status == JobStatus{})) out.set("status", encodeJobStatus(job.status, a));
  return out.merge(job.unknown).take();
}

}  // namespace jobhost
