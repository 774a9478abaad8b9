// A third-party plugin: Volcano's `tensorflow` (spec §7.7). Every container of a multi-pod job
// gets TF_CONFIG: the cluster of all tasks by role and this pod's task type and index.
#include <jobhost/jobhost.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <string>
#include <vector>

namespace {
using namespace jobhost;

constexpr const char* kName = "tensorflow";

struct Options {
  std::string ps = "ps", worker = "worker", chief = "chief", evaluator = "evaluator";
  int64_t port = 2222;
};

Status parseOptions(const PluginArgs& args, Options& out) {
  FlagSet flags("plugin tensorflow");
  flags.addString("ps", &out.ps);
  flags.addString("worker", &out.worker);
  flags.addString("chief", &out.chief);
  flags.addString("evaluator", &out.evaluator);
  flags.addInt("port", &out.port);
  return flags.parse(args);
}

// The cluster key a task's hosts go under: Volcano's switch on the task name, in the order ps,
// worker, chief, evaluator; "" for a task that is none of them (its hosts are left out).
std::string clusterKeyOf(const Options& o, const std::string& task) {
  if (task == o.ps) return "ps";
  if (task == o.worker) return "worker";
  if (task == o.chief) return "chief";
  if (task == o.evaluator) return "evaluator";
  return "";
}

// task.type of a pod: Volcano's getTaskType, which tests chief, worker, ps, evaluator in that order
// (it only matters when two role flags name the same task), else the raw task name.
std::string taskTypeOf(const Options& o, const std::string& task) {
  if (task == o.chief) return "chief";
  if (task == o.worker) return "worker";
  if (task == o.ps) return "ps";
  if (task == o.evaluator) return "evaluator";
  return task;
}

// A JSON string as Go's encoding/json writes ASCII text: quotes, backslashes and control characters
// escaped, and <, >, & as \u003c, \u003e, \u0026 (json.Marshal's HTML-safe default). Task names and
// hostnames are DNS names, so in practice nothing needs escaping; this keeps the output valid JSON.
std::string jsonString(const std::string& text) {
  static const char* hex = "0123456789abcdef";
  std::string out = "\"";
  for (unsigned char c : text) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20 || c == '<' || c == '>' || c == '&') {
          out += "\\u00";
          out += hex[c >> 4];
          out += hex[c & 0xf];
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

// Volcano appends TF_CONFIG, so it ends the container's env even when the template (or a plugin
// running after this one in an earlier pass) put it elsewhere: upsert, then move it last. Moving
// keeps OnPodCreate idempotent next to other plugins that also keep their variables last (svc).
void moveToEnd(std::vector<EnvVar>& env, const char* name) {
  auto it = std::find_if(env.begin(), env.end(), [&](const EnvVar& e) { return e.name == name; });
  if (it != env.end()) std::rotate(it, it + 1, env.end());
}

// Go's json.Marshal of Volcano's clusterInfo: no spaces, keys in the order ps, worker, chief,
// evaluator, empty lists omitted; a host per replica (repeated when the template sets a hostname).
std::string tfConfig(const Job& job, const Options& o, const std::string& type, int index) {
  std::map<std::string, std::vector<std::string>> cluster;
  for (const auto& task : job.spec.tasks)
    for (int32_t i = 0; i < task.replicas; ++i)
      cluster[clusterKeyOf(o, task.name)].push_back(volcano::domainName(job, task, i) + ":" + std::to_string(o.port));
  std::string out = "{\"cluster\":{";
  bool first = true;
  for (const char* role : {"ps", "worker", "chief", "evaluator"}) {
    auto it = cluster.find(role);
    if (it == cluster.end() || it->second.empty()) continue;
    out += std::string(first ? "" : ",") + jsonString(role) + ":[";
    for (size_t i = 0; i < it->second.size(); ++i) out += (i ? "," : "") + jsonString(it->second[i]);
    out += "]";
    first = false;
  }
  return out + "},\"task\":{\"type\":" + jsonString(type) + ",\"index\":" + std::to_string(index) + "}}";
}

class TensorflowPlugin final : public ValidationPlugin, public JobHooksPlugin {
 public:
  Status configure(const PluginSettings& settings) {
    Options o;
    return parseOptions(settings.defaultArgs, o);
  }

  Status validate(const Job&, const Job*, const PluginArgs& args, ValidationResult& out) override {
    Options o;
    if (Status st = parseOptions(args, o); !st) out.warnings.push_back(ignoredFlagWarning("spec.plugins.tensorflow", st));
    return Status::ok();
  }

  Status onJobAdd(JobContext& ctx) override {
    volcano::setMarker(ctx, kName);
    return Status::ok();
  }

  Status onPodCreate(JobContext& ctx, Pod& pod) override {
    const Job& job = ctx.job();
    if (job.spec.tasks.size() == 1 && job.spec.tasks[0].replicas == 1) return Status::ok();
    // A bad flag was an admission warning; like Volcano, run with the flags parsed before it.
    Options o;
    static_cast<void>(parseOptions(ctx.args(), o));
    const std::string index = volcano::podIndex(pod.metadata.name);
    int value = 0;
    auto [end, ec] = std::from_chars(index.data(), index.data() + index.size(), value);
    if (index.empty() || ec != std::errc() || end != index.data() + index.size())
      return Status::error("pod " + pod.metadata.name + " has no numeric index suffix; TF_CONFIG needs one");
    const std::string config = tfConfig(job, o, taskTypeOf(o, volcano::taskKey(pod)), value);
    for (auto& c : pod.spec.containers) {
      ctx.setEnv(c, EnvVar::literal("TF_CONFIG", config));
      moveToEnd(c.env, "TF_CONFIG");
    }
    return Status::ok();
  }

  Status onJobUpdate(JobContext&) override { return Status::ok(); }

  Status onJobDelete(JobContext& ctx) override {
    volcano::clearMarker(ctx, kName);
    return Status::ok();
  }
};

}  // namespace

JOBHOST_PLUGIN(TensorflowPlugin, "tensorflow", "1.0.0")
