// Volcano's job mutation: queue, schedulerName, maxRetry, tasks, minAvailable, plugins, in order.
// Every default applied is reported as the JSON-patch operation Volcano would send.
#include "host/admission/mutation.h"

#include "host/admission/go_text.h"
#include "host/spec/redact_args.h"

namespace jobhost {
namespace {

constexpr int32_t kDefaultMaxRetry = 3;

// Step 4 for one task; appends "[i].field=value" for each default applied.
void defaultTask(TaskSpec& task, size_t i, std::vector<std::string>& changes) {
  const std::string at = "[" + std::to_string(i) + "].";
  if (task.name.empty()) {
    task.name = std::string(keys::DefaultTaskSpec) + std::to_string(i);
    changes.push_back(at + "name=" + gotext::jsonString(task.name));
  }
  PodSpec& pod = task.template_.spec;
  if (pod.hostNetwork && pod.dnsPolicy.empty()) {
    pod.dnsPolicy = "ClusterFirstWithHostNet";
    changes.push_back(at + "template.spec.dnsPolicy=" + gotext::jsonString(pod.dnsPolicy));
  }
  if (!task.minAvailable) {
    const auto& pp = task.partitionPolicy;
    task.minAvailable = pp && pp->minPartitions > 0
                            ? static_cast<int32_t>(int64_t{pp->minPartitions} * pp->partitionSize)
                            : task.replicas;
    changes.push_back(at + "minAvailable=" + std::to_string(*task.minAvailable));
  }
  if (task.maxRetry == 0) {
    task.maxRetry = kDefaultMaxRetry;
    changes.push_back(at + "maxRetry=" + std::to_string(kDefaultMaxRetry));
  }
}

std::string pluginsJson(const std::map<std::string, std::vector<std::string>>& plugins) {
  std::string out = "{";
  bool firstPlugin = true;
  for (const auto& [name, shown] : plugins) {
    const std::vector<std::string> args = redactArgs(shown);  // the patch is shown to users
    if (!firstPlugin) out.push_back(',');
    firstPlugin = false;
    out += gotext::jsonString(name) + ":[";
    for (size_t i = 0; i < args.size(); ++i) {
      if (i > 0) out.push_back(',');
      out += gotext::jsonString(args[i]);
    }
    out.push_back(']');
  }
  out.push_back('}');
  return out;
}

}  // namespace

std::vector<PatchOp> mutateJob(Job& job, const MutationConfig& config) {
  std::vector<PatchOp> ops;
  JobSpec& spec = job.spec;
  if (spec.queue.empty()) {
    spec.queue = "default";
    ops.push_back({"add", "/spec/queue", gotext::jsonString(spec.queue)});
  }
  if (spec.schedulerName.empty()) {
    spec.schedulerName = config.schedulerNames.empty() ? "volcano" : config.schedulerNames.front();
    ops.push_back({"add", "/spec/schedulerName", gotext::jsonString(spec.schedulerName)});
  }
  if (spec.maxRetry == 0) {
    spec.maxRetry = kDefaultMaxRetry;
    ops.push_back({"add", "/spec/maxRetry", std::to_string(kDefaultMaxRetry)});
  }

  std::vector<std::string> changes;
  for (size_t i = 0; i < spec.tasks.size(); ++i) defaultTask(spec.tasks[i], i, changes);
  if (!changes.empty()) {
    std::string summary;
    for (const auto& c : changes) summary += (summary.empty() ? "" : ", ") + c;
    ops.push_back({"replace", "/spec/tasks", std::move(summary)});
  }

  if (spec.minAvailable == 0) {
    int32_t sum = 0;
    for (const auto& t : spec.tasks) sum = static_cast<int32_t>(int64_t{sum} + t.minAvailable.value_or(t.replicas));
    spec.minAvailable = sum;
    ops.push_back({"add", "/spec/minAvailable", std::to_string(sum)});
  }

  if (!spec.plugins.empty()) {
    auto has = [&](const char* name) { return spec.plugins.count(name) > 0; };
    if (has("tensorflow") || has("mpi") || has("pytorch") || has("ray") || has("torch")) spec.plugins.try_emplace("svc");
    if (has("mpi")) spec.plugins.try_emplace("ssh");
    ops.push_back({"replace", "/spec/plugins", pluginsJson(spec.plugins)});
  }
  return ops;
}

}  // namespace jobhost
