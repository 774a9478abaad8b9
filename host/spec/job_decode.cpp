// Decoders for the Volcano job model: TypeMeta check, JobSpec, TaskSpec, policies, dependsOn,
// partitions, job volumes, network topology and (best effort) JobStatus.
#include "host/spec/job_decode.h"

#include <algorithm>
#include <cctype>

#include "host/spec/decoder.h"
#include "host/spec/duration.h"
#include "host/spec/pod_decode.h"

namespace jobhost {

bool isJobInOtherCase(std::string_view kind) {
  constexpr std::string_view kJob = "job";
  return kind != "Job" && std::equal(kind.begin(), kind.end(), kJob.begin(), kJob.end(), [](char a, char b) {
           return std::tolower(static_cast<unsigned char>(a)) == b;
         });
}

namespace {

using Value = rapidjson::Value;
constexpr std::string_view kJobApiVersion = "batch.volcano.sh/v1alpha1";

void checkTypeMeta(const Decoder& d, const Value& root) {
  auto text = [&](const char* key) -> std::optional<std::string> {
    auto it = root.FindMember(key);
    if (it == root.MemberEnd()) return std::nullopt;
    if (!it->value.IsString()) d.fail(key, "must be a string");
    return std::string(it->value.GetString(), it->value.GetStringLength());
  };
  const std::string need = "a Volcano Job needs apiVersion: batch.volcano.sh/v1alpha1 and kind: Job";
  auto kind = text("kind");
  if (!kind) d.fail("kind", "is missing; " + need);
  if (isJobInOtherCase(*kind)) d.fail("kind", "must be \"Job\", found \"" + *kind + "\": kinds are case-sensitive");
  if (*kind != "Job") d.fail("kind", "must be \"Job\", found \"" + *kind + "\"; only Volcano Jobs are accepted here");
  auto apiVersion = text("apiVersion");
  if (!apiVersion) d.fail("apiVersion", "is missing; " + need);
  if (*apiVersion != kJobApiVersion)
    d.fail("apiVersion", "must be \"batch.volcano.sh/v1alpha1\", found \"" + *apiVersion + "\"");
}

}  // namespace

void read(const Decoder& d, const Value& v, const std::string& path, NetworkTopologySpec& out) {
  d.fields(v, path,
           {{"mode", d.into(out.mode)},
            {"highestTierAllowed", d.into(out.highestTierAllowed)},
            {"highestTierName", d.into(out.highestTierName)}});
}

void read(const Decoder& d, const Value& v, const std::string& path, LifecyclePolicy& out) {
  d.fields(v, path,
           {{"action", d.into(out.action)},
            {"event", d.into(out.event)},
            {"events", d.into(out.events)},
            {"exitCode", d.into(out.exitCode)},
            {"timeout", d.into(out.timeout)}});
}

void read(const Decoder& d, const Value& v, const std::string& path, DependsOn& out) {
  d.fields(v, path, {{"name", d.into(out.name)}, {"iteration", d.into(out.iteration)}});
}

void read(const Decoder& d, const Value& v, const std::string& path, PartitionPolicy& out) {
  d.fields(v, path,
           {{"totalPartitions", d.into(out.totalPartitions)},
            {"partitionSize", d.into(out.partitionSize)},
            {"networkTopology", d.into(out.networkTopology)},
            {"minPartitions", d.into(out.minPartitions)}});
}

void read(const Decoder& d, const Value& v, const std::string& path, TaskSpec& out) {
  d.fields(v, path,
           {{"name", d.into(out.name)},
            {"replicas", d.into(out.replicas)},
            {"minAvailable", d.into(out.minAvailable)},
            {"template", d.into(out.template_)},
            {"policies", d.into(out.policies)},
            {"topologyPolicy", d.into(out.topologyPolicy)},
            {"maxRetry", d.into(out.maxRetry)},
            {"dependsOn", d.into(out.dependsOn)},
            {"partitionPolicy", d.into(out.partitionPolicy)}},
           out.unknown);
}

void read(const Decoder& d, const Value& v, const std::string& path, JobVolume& out) {
  auto claimSpec = [&](const Value& x, const std::string& p) {
    if (!x.IsObject()) return d.wrongType(x, p, "object", "must be an object (a PersistentVolumeClaimSpec)");
    out.volumeClaim = compactJson(x);
  };
  d.fields(v, path,
           {{"mountPath", d.into(out.mountPath)},
            {"volumeClaimName", d.into(out.volumeClaimName)},
            {"volumeClaim", claimSpec}});
}

void read(const Decoder& d, const Value& v, const std::string& path, JobSpec& out) {
  d.fields(v, path,
           {{"schedulerName", d.into(out.schedulerName)},
            {"minAvailable", d.into(out.minAvailable)},
            {"volumes", d.into(out.volumes)},
            {"tasks", d.into(out.tasks)},
            {"policies", d.into(out.policies)},
            {"plugins", d.into(out.plugins)},
            {"runningEstimate", d.into(out.runningEstimate)},
            {"queue", d.into(out.queue)},
            {"maxRetry", d.into(out.maxRetry)},
            {"ttlSecondsAfterFinished", d.into(out.ttlSecondsAfterFinished)},
            {"priorityClassName", d.into(out.priorityClassName)},
            {"minSuccess", d.into(out.minSuccess)},
            {"networkTopology", d.into(out.networkTopology)}},
           out.unknown);
}

void read(const Decoder& d, const Value& v, const std::string& path, JobPhase& out) {
  std::string text;
  read(d, v, path, text);
  auto phase = parseJobPhase(text);
  if (!phase)
    d.fail(path, "must be a job phase (Pending, Aborting, Aborted, Running, Restarting, Completing, "
                 "Completed, Terminating, Terminated, Failed), not \"" + text + "\"");
  out = *phase;
}

void read(const Decoder& d, const Value& v, const std::string& path, JobState& out) {
  d.fields(v, path,
           {{"phase", d.into(out.phase)},
            {"reason", d.into(out.reason)},
            {"message", d.into(out.message)},
            {"lastTransitionTime", d.time(out.lastTransitionTime)}},
           UnknownKeys::Ignore);
}

void read(const Decoder& d, const Value& v, const std::string& path, JobCondition& out) {
  d.fields(v, path, {{"status", d.into(out.status)}, {"lastTransitionTime", d.time(out.lastTransitionTime)}},
           UnknownKeys::Ignore);
}

// taskStatusCount.<task>: {phase: {Running: 2}}; pod phases jobhost does not know are skipped.
void read(const Decoder& d, const Value& v, const std::string& path, TaskState& out) {
  auto phases = [&](const Value& x, const std::string& p) {
    std::map<std::string, int32_t> counts;
    read(d, x, p, counts);
    for (PodPhase phase : {PodPhase::Pending, PodPhase::Running, PodPhase::Succeeded, PodPhase::Failed, PodPhase::Unknown})
      if (auto it = counts.find(toString(phase)); it != counts.end()) out.phase[phase] = it->second;
  };
  d.fields(v, path, {{"phase", phases}}, UnknownKeys::Ignore);
}

void read(const Decoder& d, const Value& v, const std::string& path, JobStatus& out) {
  auto runningDuration = [&](const Value& x, const std::string& p) {
    Duration duration;
    read(d, x, p, duration);
    out.runningDurationMs = duration.ms;
  };
  d.fields(v, path,
           {{"state", d.into(out.state)},
            {"minAvailable", d.into(out.minAvailable)},
            {"taskStatusCount", d.into(out.taskStatusCount)},
            {"pending", d.into(out.pending)},
            {"running", d.into(out.running)},
            {"succeeded", d.into(out.succeeded)},
            {"failed", d.into(out.failed)},
            {"terminating", d.into(out.terminating)},
            {"unknown", d.into(out.unknown)},
            {"version", d.into(out.version)},
            {"retryCount", d.into(out.retryCount)},
            {"runningDuration", runningDuration},
            {"controlledResources", d.into(out.controlledResources)},
            {"conditions", d.into(out.conditions)}},
           UnknownKeys::Ignore);
}

Expected<Job> decodeJob(const SourceDoc& source, std::vector<SchemaFinding>& schemaFindings) {
  Decoder d(source, "spec");
  const Value& root = source.doc;
  try {
    if (!root.IsObject())
      d.fail("", "must be an object with apiVersion: batch.volcano.sh/v1alpha1 and kind: Job");
    checkTypeMeta(d, root);
    Job job;
    auto alreadyChecked = [](const Value&, const std::string&) {};
    // The API server drops the status of a Job it creates (status subresource) before validating
    // it, so a status that does not decode is left out, not an error.
    auto status = [&](const Value& v, const std::string& path) {
      try {
        read(d, v, path, job.status);
      } catch (const DecodeFailure&) {
        job.status = JobStatus{};
      }
    };
    d.fields(root, "",
             {{"apiVersion", alreadyChecked},
              {"kind", alreadyChecked},
              {"metadata", d.into(job.metadata)},
              {"spec", d.into(job.spec)},
              {"status", status}},
             job.unknown);
    if (job.metadata.namespace_.empty()) job.metadata.namespace_ = "default";
    schemaFindings = d.takeSchemaFindings();
    return job;
  } catch (const DecodeFailure& e) {
    return Expected<Job>::failure(e.what());
  } catch (const std::exception& e) {
    return Expected<Job>::failure(source.file + ": cannot decode job: " + e.what());
  }
}

}  // namespace jobhost
