// JSON writers (RapidJSON) for simulate's output lines and the final job status.
#include "host/cluster/sim/status_json.h"

#include <ctime>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "host/spec/duration.h"

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

void writeStatus(Writer& w, const JobStatus& s) {
  w.StartObject();
  w.Key("state");
  w.StartObject();
  field(w, "phase", std::string(toString(s.state.phase)));
  field(w, "reason", s.state.reason);
  field(w, "message", s.state.message);
  if (s.state.lastTransitionTime) field(w, "lastTransitionTime", rfc3339(*s.state.lastTransitionTime));
  w.EndObject();
  field(w, "minAvailable", s.minAvailable);
  w.Key("taskStatusCount");
  w.StartObject();
  for (const auto& [task, state] : s.taskStatusCount) {
    w.Key(task.c_str(), static_cast<rapidjson::SizeType>(task.size()));
    w.StartObject();
    w.Key("phase");
    w.StartObject();
    for (const auto& [phase, n] : state.phase) field(w, toString(phase), n);
    w.EndObject();
    w.EndObject();
  }
  w.EndObject();
  field(w, "pending", s.pending);
  field(w, "running", s.running);
  field(w, "succeeded", s.succeeded);
  field(w, "failed", s.failed);
  field(w, "terminating", s.terminating);
  field(w, "unknown", s.unknown);
  field(w, "version", s.version);
  field(w, "retryCount", s.retryCount);
  if (s.runningDurationMs) field(w, "runningDuration", formatGoDuration(Duration{*s.runningDurationMs}));
  w.Key("controlledResources");
  w.StartObject();
  for (const auto& [k, v] : s.controlledResources) field(w, k.c_str(), v);
  w.EndObject();
  w.Key("conditions");
  w.StartArray();
  for (const auto& c : s.conditions) {
    w.StartObject();
    field(w, "status", std::string(toString(c.status)));
    if (c.lastTransitionTime) field(w, "lastTransitionTime", rfc3339(*c.lastTransitionTime));
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
}

}  // namespace

std::string rfc3339(TimeMs ms) {
  std::time_t seconds = static_cast<std::time_t>(ms >= 0 ? ms / 1000 : (ms - 999) / 1000);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

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

std::string jobStatusJson(const JobStatus& status) {
  rapidjson::StringBuffer buf;
  Writer w(buf);
  writeStatus(w, status);
  return buf.GetString();
}

}  // namespace jobhost
