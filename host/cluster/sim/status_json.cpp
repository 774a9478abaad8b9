// JSON writers (RapidJSON) for simulate's output lines: handled requests and PodGroup
// Unschedulable reports.
#include "host/cluster/sim/status_json.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

namespace jobhost {
namespace {

using Writer = rapidjson::Writer<rapidjson::StringBuffer>;

void field(Writer& w, const char* key, const std::string& value) {
  w.Key(key);
  w.String(value.c_str(), static_cast<rapidjson::SizeType>(value.size()));
}

void field(Writer& w, const char* key, int64_t value) {
  w.Key(key);
  w.Int64(value);
}

}  // namespace

std::string handledRequestJson(const HandledRequest& r, TimeMs origin) {
  rapidjson::StringBuffer buf;
  Writer w(buf);
  w.StartObject();
  field(w, "t_ms", r.at - origin);
  field(w, "event", r.request.event);
  field(w, "pod", r.request.podName);
  field(w, "exitCode", r.request.exitCode);
  field(w, "action", r.action);
  field(w, "delay_ms", r.delayMs);
  field(w, "phase", std::string(toString(r.phase)));
  field(w, "retryCount", r.retryCount);
  field(w, "version", r.version);
  field(w, "pending", r.pending);
  field(w, "running", r.running);
  field(w, "succeeded", r.succeeded);
  field(w, "failed", r.failed);
  field(w, "terminating", r.terminating);
  field(w, "unknown", r.unknown);
  if (!r.request.taskName.empty()) field(w, "task", r.request.taskName);
  if (r.delayedFire) {
    w.Key("fired");
    w.Bool(true);
  }
  if (!r.error.empty()) field(w, "error", r.error);
  if (r.requeued) {
    w.Key("requeued");
    w.Bool(true);
  }
  if (r.retryLimitReached) {
    w.Key("retryLimitReached");
    w.Bool(true);
  }
  w.EndObject();
  return buf.GetString();
}

std::string unschedulableJson(const PodGroup& podGroup, TimeMs at) {
  const PodGroupCondition& c = podGroup.status.conditions.back();
  rapidjson::StringBuffer buf;
  Writer w(buf);
  w.StartObject();
  field(w, "t_ms", at);
  field(w, "podGroup", podGroup.metadata.name);
  field(w, "phase", podGroup.status.phase);
  field(w, "condition", c.type);
  field(w, "reason", c.reason);
  field(w, "message", c.message);
  w.EndObject();
  return buf.GetString();
}

}  // namespace jobhost
