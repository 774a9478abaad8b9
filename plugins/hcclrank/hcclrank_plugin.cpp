// The hcclrank plugin (Volcano's `hcclrank`, spec §7.9): the `hccl/rankIndex` annotation on master
// and worker pods, from a RANK env var or the pod's task index. Points: Validation, JobHooks.
#include <jobhost/jobhost.h>

#include <cstdint>
#include <limits>
#include <string>

namespace {
using namespace jobhost;

const std::string kRankAnnotation = "hccl/rankIndex";

struct Options {
  std::string master = "master";
  std::string worker = "worker";
};

Status parseOptions(const PluginArgs& args, Options& out) {
  FlagSet flags("plugin hcclrank");
  flags.addString("master", &out.master);
  flags.addString("worker", &out.worker);
  return flags.parse(args);
}

// The value of the first RANK variable of the pod's containers (init containers are not read), as
// Volcano's getEnv: "" when there is none, or when the first one takes its value from a reference.
std::string rankEnv(const Pod& pod) {
  for (const auto& c : pod.spec.containers)
    for (const auto& e : c.env)
      if (e.name == "RANK") return e.value;
  return "";
}

// Go's strconv.Atoi on `text`: an optional sign and decimal digits; false with Go's error text.
bool atoi(const std::string& text, int64_t& out, std::string& error) {
  size_t i = text.empty() || (text[0] != '+' && text[0] != '-') ? 0 : 1;
  if (i == text.size()) {
    error = "strconv.Atoi: parsing \"" + text + "\": invalid syntax";
    return false;
  }
  const bool negative = text[0] == '-';
  uint64_t magnitude = 0;
  bool overflow = false;
  for (; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') {
      error = "strconv.Atoi: parsing \"" + text + "\": invalid syntax";
      return false;
    }
    const uint64_t digit = static_cast<uint64_t>(text[i] - '0');
    if (magnitude > (std::numeric_limits<uint64_t>::max() - digit) / 10) overflow = true;
    if (!overflow) magnitude = magnitude * 10 + digit;
  }
  const uint64_t limit = static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) + (negative ? 1 : 0);
  if (overflow || magnitude > limit) {
    error = "strconv.Atoi: parsing \"" + text + "\": value out of range";
    return false;
  }
  out = negative ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude);
  return true;
}

// Volcano's GetTaskIndexOfPod: the volcano.sh/task-index label as an integer.
Status taskIndexOf(const Pod& pod, int64_t& index) {
  const auto it = pod.metadata.labels.find(std::string(keys::TaskIndex));
  if (it == pod.metadata.labels.end())
    return Status::error("pod " + pod.metadata.name + " doesn't have " + std::string(keys::TaskIndex) + " label");
  std::string error;
  if (!atoi(it->second, index, error))
    return Status::error("failed to parse task index for pod " + pod.metadata.name + ": " + error);
  return Status::ok();
}

// Volcano's GetTaskReplicasUnderJob: the named task's replicas, 0 when the job has no such task.
int64_t replicasOf(const Job& job, const std::string& task) {
  const TaskSpec* spec = job.findTask(task);
  return spec == nullptr ? 0 : spec->replicas;
}

class HcclrankPlugin final : public ValidationPlugin, public JobHooksPlugin {
 public:
  Status configure(const PluginSettings& settings) {
    Options options;
    return parseOptions(settings.defaultArgs, options);
  }

  Status validate(const Job&, const Job*, const PluginArgs& args, ValidationResult& out) override {
    Options options;
    if (Status st = parseOptions(args, options); !st)
      out.warnings.push_back(ignoredFlagWarning("spec.plugins.hcclrank", st));
    return Status::ok();
  }

  // No marker: Volcano's hcclrank keeps nothing in status.controlledResources.
  Status onJobAdd(JobContext&) override { return Status::ok(); }

  Status onPodCreate(JobContext& ctx, Pod& pod) override {
    auto& annotations = pod.metadata.annotations;
    if (auto it = annotations.find(kRankAnnotation); it != annotations.end() && !it->second.empty())
      return Status::ok();
    if (std::string rank = rankEnv(pod); !rank.empty()) {
      annotations[kRankAnnotation] = std::move(rank);
      return Status::ok();
    }
    Options options;
    static_cast<void>(parseOptions(ctx.args(), options));  // a bad flag was reported at admission
    const std::string task = volcano::taskKey(pod);
    if (task != options.master && task != options.worker) return Status::ok();
    int64_t index = 0;
    if (Status st = taskIndexOf(pod, index); !st) return st;
    // Go's int addition wraps; unsigned arithmetic gives the same result without overflow.
    const uint64_t base = task == options.master ? 0 : static_cast<uint64_t>(replicasOf(ctx.job(), options.master));
    annotations[kRankAnnotation] = std::to_string(static_cast<int64_t>(base + static_cast<uint64_t>(index)));
    return Status::ok();
  }

  Status onJobUpdate(JobContext&) override { return Status::ok(); }
  Status onJobDelete(JobContext&) override { return Status::ok(); }
};

}  // namespace

JOBHOST_PLUGIN(HcclrankPlugin, "hcclrank", "0.1.0")
