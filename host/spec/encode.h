// Serialisation of jobhost value types to Kubernetes JSON (RapidJSON values): Job and its status,
// Pod, PodGroup and the objects a job creates (PVC, ConfigMap, ...), with apiVersion/kind and omitempty.
#pragma once

#include <rapidjson/document.h>

#include <string_view>

#include "jobhost/job.h"
#include "jobhost/objects.h"
#include "jobhost/pod.h"

namespace jobhost {

using JsonAllocator = rapidjson::Document::AllocatorType;

struct EncodeOptions {
  /// Secret values are written as base64("<redacted>") ("PHJlZGFjdGVkPg=="), keys kept, and a Job's
  /// plugin args that carry secrets (--ssh-private-key=, *password*, *token*, *secret*, *credential*
  /// flags) as `--flag=<redacted>`, unless this is set to false. Only for trusted sinks.
  bool redactSecrets = true;
  /// encodeJobStatus writes every status field, zero values included ("reason":"", "pending":0,
  /// "taskStatusCount":{}, "conditions":[], each task's "phase":{}), as `jobhost simulate` reports
  /// them; unset times and runningDuration are still left out.
  bool everyStatusField = false;
};

// Every encoder returns a JSON object whose strings and children live in `allocator`; members are
// in Kubernetes' order (apiVersion, kind, metadata, spec, status; fields in Go struct order),
// fields at their zero value are omitted as Go's omitempty would (required ones such as
// containers[].name, ports[].containerPort and tasks[].replicas are always written), and each
// struct's unknown fields follow its modelled fields, in their stored order. An unknown entry whose
// key the struct already models is skipped; one whose text is not JSON is written as a string.
// Times are RFC 3339 UTC seconds; Go durations use Duration.String() form.

/// batch.volcano.sh/v1alpha1 Job: metadata, spec, and status unless it is all defaults; secret
/// plugin args redacted unless options.redactSecrets is false.
rapidjson::Value encodeJob(const Job& job, JsonAllocator& allocator, EncodeOptions options = {});
/// The Job status object alone: state{phase,reason,message,lastTransitionTime} (always present),
/// minAvailable, taskStatusCount{task:{phase:{Running:1}}}, counters, version, retryCount,
/// runningDuration, controlledResources, conditions[{status,lastTransitionTime}].
rapidjson::Value encodeJobStatus(const JobStatus& status, JsonAllocator& allocator);
/// encodeJobStatus with options (everyStatusField: every field written, as `jobhost simulate` does).
rapidjson::Value encodeJobStatusWith(const JobStatus& status, JsonAllocator& allocator, EncodeOptions options);
/// v1 Pod; status.nodeName is written where Kubernetes keeps it, at spec.nodeName.
rapidjson::Value encodePod(const Pod& pod, JsonAllocator& allocator);
/// scheduling.volcano.sh/v1beta1 PodGroup; status only when not all defaults.
rapidjson::Value encodePodGroup(const PodGroup& podGroup, JsonAllocator& allocator);
rapidjson::Value encodeConfigMap(const ConfigMap& configMap, JsonAllocator& allocator);
/// v1 PersistentVolumeClaim with `spec` given as PersistentVolumeClaimSpec JSON text.
rapidjson::Value encodePersistentVolumeClaim(const ObjectMeta& meta, std::string_view spec, JsonAllocator& allocator);
/// v1 Secret, data base64-encoded; redacted unless options.redactSecrets is false.
rapidjson::Value encodeSecret(const Secret& secret, JsonAllocator& allocator, EncodeOptions options = {});
rapidjson::Value encodeService(const Service& service, JsonAllocator& allocator);
/// networking.k8s.io/v1 NetworkPolicy.
rapidjson::Value encodeNetworkPolicy(const NetworkPolicy& policy, JsonAllocator& allocator);

}  // namespace jobhost
