// Kubernetes JSON for the Volcano Job: spec (tasks, policies, plugins, volumes, partitions) and
// status (state, counters, taskStatusCount, conditions), durations in Go form.
#include "host/spec/duration.h"
#include "host/spec/encode.h"
#include "host/spec/encode_parts.h"
#include "host/spec/redact_args.h"

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

Value encodePlugins(const std::map<std::string, std::vector<std::string>>& plugins, JsonAllocator& a, bool redact) {
  Value out(rapidjson::kObjectType);
  for (const auto& [name, args] : plugins)
    out.AddMember(jsonString(name, a), jsonStrings(redact ? redactArgs(args) : args, a), a);
  return out;
}

Value encodeJobSpec(const JobSpec& s, JsonAllocator& a, const EncodeOptions& options) {
  JsonObject out(a);
  out.stringIfSet("schedulerName", s.schedulerName)
      .integerIfSet("minAvailable", s.minAvailable)
      .setIfSet("volumes", jsonArray(s.volumes, a, encodeJobVolume))
      .setIfSet("tasks", jsonArray(s.tasks, a, encodeTask))
      .setIfSet("policies", jsonArray(s.policies, a, encodePolicy))
      .setIfSet("plugins", encodePlugins(s.plugins, a, options.redactSecrets));
  if (s.runningEstimate) out.string("runningEstimate", formatGoDuration(*s.runningEstimate));
  out.stringIfSet("queue", s.queue)
      .integerIfSet("maxRetry", s.maxRetry)
      .integerIfSet("ttlSecondsAfterFinished", s.ttlSecondsAfterFinished)
      .stringIfSet("priorityClassName", s.priorityClassName)
      .integerIfSet("minSuccess", s.minSuccess);
  if (s.networkTopology) out.set("networkTopology", encodeNetworkTopology(*s.networkTopology, a));
  return out.merge(s.unknown).take();
}

// A status object: omitempty, or every field when `every` (EncodeOptions::everyStatusField).
class StatusObject {
 public:
  StatusObject(JsonAllocator& a, bool every) : out_(a), every_(every) {}
  StatusObject& text(std::string_view key, std::string_view value) {
    every_ ? out_.string(key, value) : out_.stringIfSet(key, value);
    return *this;
  }
  StatusObject& number(std::string_view key, int64_t value) {
    every_ ? out_.integer(key, value) : out_.integerIfSet(key, value);
    return *this;
  }
  StatusObject& child(std::string_view key, Value value) {
    every_ ? out_.set(key, std::move(value)) : out_.setIfSet(key, std::move(value));
    return *this;
  }
  JsonObject& object() { return out_; }

 private:
  JsonObject out_;
  bool every_;
};

/// Pod phases in the order of their names: Go's encoding/json writes a map's keys sorted.
constexpr PodPhase kPhasesByName[] = {PodPhase::Failed, PodPhase::Pending, PodPhase::Running, PodPhase::Succeeded,
                                      PodPhase::Unknown};

Value encodeTaskStatusCount(const std::map<std::string, TaskState>& counts, JsonAllocator& a, bool every) {
  Value out(rapidjson::kObjectType);
  for (const auto& [task, state] : counts) {
    Value phases(rapidjson::kObjectType);
    for (PodPhase phase : kPhasesByName)
      if (auto it = state.phase.find(phase); it != state.phase.end())
        phases.AddMember(jsonString(toString(phase), a), Value(it->second), a);
    out.AddMember(jsonString(task, a), StatusObject(a, every).child("phase", std::move(phases)).object().take(), a);
  }
  return out;
}

Value encodeCondition(const JobCondition& c, JsonAllocator& a) {
  return JsonObject(a).string("status", toString(c.status)).timeIfSet("lastTransitionTime", c.lastTransitionTime).take();
}

}  // namespace

Value encodeJobStatusWith(const JobStatus& s, JsonAllocator& a, EncodeOptions options) {
  const bool every = options.everyStatusField;
  StatusObject state(a, every);
  state.text("phase", toString(s.state.phase)).text("reason", s.state.reason).text("message", s.state.message);
  state.object().timeIfSet("lastTransitionTime", s.state.lastTransitionTime);
  StatusObject out(a, every);
  out.object().set("state", state.object().take());  // always present
  out.number("minAvailable", s.minAvailable)
      .child("taskStatusCount", encodeTaskStatusCount(s.taskStatusCount, a, every))
      .number("pending", s.pending)
      .number("running", s.running)
      .number("succeeded", s.succeeded)
      .number("failed", s.failed)
      .number("terminating", s.terminating)
      .number("unknown", s.unknown)
      .number("version", s.version)
      .number("retryCount", s.retryCount);
  if (s.runningDurationMs)
    out.object().string("runningDuration", formatGoDuration(Duration{*s.runningDurationMs}));
  else if (every)  // unset (a sync drops it, a kill sets it): null, so every field is named
    out.object().set("runningDuration", Value(rapidjson::kNullType));
  return out.child("controlledResources", jsonStringMap(s.controlledResources, a))
      .child("conditions", jsonArray(s.conditions, a, encodeCondition))
      .object()
      .take();
}

Value encodeJobStatus(const JobStatus& s, JsonAllocator& a) { return encodeJobStatusWith(s, a, EncodeOptions{}); }

Value encodeJob(const Job& job, JsonAllocator& a, EncodeOptions options) {
  JsonObject out(a);
  out.string("apiVersion", job.apiVersion)
      .string("kind", job.kind)
      .set("metadata", encodeObjectMeta(job.metadata, a))
      .set("spec", encodeJobSpec(job.spec, a, options));
  if (!(job.status == JobStatus{})) out.set("status", encodeJobStatus(job.status, a));
  return out.merge(job.unknown).take();
}

}  // namespace jobhost
