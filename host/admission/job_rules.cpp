// Webhook rules over tasks, volumes, queues and dependencies, with Volcano's exact pieces.
// Each returns the piece Volcano appends plus the field it is about.
#include "host/admission/job_rules.h"

#include <map>
#include <set>
#include <string>

#include "host/workload/k8s_names.h"
#include "host/admission/go_text.h"
#include "jobhost/flags.h"

namespace jobhost {
namespace {

std::string taskPath(size_t i, std::string_view field) {
  return "spec.tasks[" + std::to_string(i) + "]." + std::string(field);
}

std::string inTask(const TaskSpec& task, const Job& job) {
  return " in task: " + task.name + ", job: " + job.metadata.name;
}

const QueueConfig* findQueue(const std::vector<QueueConfig>& queues, const std::string& name) {
  for (const auto& q : queues)
    if (q.name == name) return &q;
  if (name == "default" || name == "root") {
    static const QueueConfig kDefault{"default", "Open", ""};
    static const QueueConfig kRoot{"root", "Open", ""};
    return name == "root" ? &kRoot : &kDefault;
  }
  return nullptr;
}

}  // namespace

bool tiersConflict(const std::optional<NetworkTopologySpec>& topology) {
  return topology && topology->highestTierAllowed && !topology->highestTierName.empty();
}

std::optional<WebhookError> mpiMasterError(const Job& job, const std::vector<std::string>& args) {
  std::string master = "master", worker = "worker";
  int64_t port = 22, slots = 1;  // Go's flag.IntVar: a 64-bit int, like the mpi plugin's own flags
  FlagSet flags("plugin mpi");
  flags.addString("master", &master);
  flags.addString("worker", &worker);
  flags.addInt("port", &port);
  flags.addInt("slots", &slots);
  bool launcherAsNode = false;  // jobhost's mpi plugin has this flag too: parsing must not stop at it
  flags.addBool("run-launcher-as-node", &launcherAsNode);
  flags.addBool("runLauncherAsNode", &launcherAsNode);
  (void)flags.parse(args);  // like Volcano: a bad flag is logged, the flags before it stay set
  if (job.findTask(master) != nullptr) return std::nullopt;
  return webhookError("The specified mpi master task was not found", "spec.plugins.mpi");
}

std::optional<WebhookError> partitionPolicyError(const Job& job, size_t i) {
  const TaskSpec& task = job.spec.tasks[i];
  if (!task.partitionPolicy) return std::nullopt;
  const PartitionPolicy& pp = *task.partitionPolicy;
  if (pp.totalPartitions <= 0)
    return webhookError("'TotalPartitions' must be greater than 0" + inTask(task, job),
                        taskPath(i, "partitionPolicy.totalPartitions"));
  if (pp.partitionSize <= 0)
    return webhookError("'PartitionSize' must be greater than 0" + inTask(task, job),
                        taskPath(i, "partitionPolicy.partitionSize"));
  if (task.replicas != mulInt32(pp.totalPartitions, pp.partitionSize))  // int32 arithmetic, as in Go
    return webhookError("'Replicas' are not equal to TotalPartitions*PartitionSize" + inTask(task, job),
                        taskPath(i, "replicas"));
  if (task.minAvailable && pp.minPartitions > 0 && *task.minAvailable != mulInt32(pp.minPartitions, pp.partitionSize))
    return webhookError("'MinAvailable' is not equal to MinPartitions*PartitionSize" + inTask(task, job),
                        taskPath(i, "minAvailable"));
  if (tiersConflict(pp.networkTopology))
    return webhookError(std::string(kTiersConflict), taskPath(i, "partitionPolicy.networkTopology"));
  return std::nullopt;
}

std::optional<WebhookError> topologyCpuError(const TaskSpec& task, size_t i) {
  if (task.topologyPolicy.empty() || task.topologyPolicy == "none") return std::nullopt;
  const auto& spec = task.template_.spec;
  const size_t regular = spec.containers.size();
  for (size_t id = 0; id < regular + spec.initContainers.size(); ++id) {
    const Container& c = id < regular ? spec.containers[id] : spec.initContainers[id - regular];
    const ResourceList& requests = c.resources.requests.empty() ? c.resources.limits : c.resources.requests;
    auto cpu = requests.find("cpu");
    const Quantity q = cpu == requests.end() ? Quantity() : cpu->second;
    if (q.value() * 1000 == q.milliValue() && q.value() != 0) continue;  // guaranteedCPUs != 0
    const std::string container = id < regular ? "containers[" + std::to_string(id) + "]"
                                               : "initContainers[" + std::to_string(id - regular) + "]";
    // "isn't  an" with two spaces is Volcano's literal text (admit_job.go, validateTaskTopoPolicy).
    return webhookError("the cpu request isn't  an integer in spec.task[" + std::to_string(i) + "] container[" +
                            std::to_string(id) + "].",
                        taskPath(i, "template.spec." + container + ".resources.requests.cpu"));
  }
  return std::nullopt;
}

std::optional<WebhookError> volumesError(const std::vector<JobVolume>& volumes) {
  std::set<std::string, std::less<>> mountPaths;
  for (size_t k = 0; k < volumes.size(); ++k) {
    const JobVolume& v = volumes[k];
    const std::string path = "spec.volumes[" + std::to_string(k) + "]";
    if (v.mountPath.empty()) return webhookError(" mountPath is required;", path + ".mountPath");
    if (mountPaths.count(v.mountPath))
      return webhookError(" duplicated mountPath: " + v.mountPath + ";", path + ".mountPath");
    if (!v.volumeClaim && v.volumeClaimName.empty())
      return webhookError(" either VolumeClaim or VolumeClaimName must be specified;", path);
    if (!v.volumeClaimName.empty()) {
      if (v.volumeClaim)
        return webhookError(
            "conflict: If you want to use an existing PVC, just specify VolumeClaimName."
            "If you want to create a new PVC, you do not need to specify VolumeClaimName",
            path + ".volumeClaimName");
      auto errs = k8s::isDNS1123Subdomain(v.volumeClaimName);
      if (!errs.empty())
        return webhookError("invalid VolumeClaimName " + v.volumeClaimName + " : " + gotext::slice(errs),
                            path + ".volumeClaimName");
    }
    mountPaths.insert(v.mountPath);
  }
  return std::nullopt;
}

std::vector<WebhookError> queueErrors(const Job& job, const std::vector<QueueConfig>& queues) {
  const std::string& name = job.spec.queue;
  const QueueConfig* queue = findQueue(queues, name);
  if (queue == nullptr)
    return {webhookError(" unable to find job queue: queue.scheduling.volcano.sh " + gotext::quote(name) + " not found;",
                         "spec.queue")};
  std::vector<WebhookError> out;
  if (queue->state != "Open")
    out.push_back(webhookError(" can only submit job to queue with state `Open`, queue `" + name + "` status is `" +
                                   queue->state + "`;",
                               "spec.queue"));
  if (name == "root") {
    out.push_back(webhookError(" can not submit job to root queue;", "spec.queue"));
    return out;
  }
  size_t children = 0;
  for (const auto& q : queues)
    if (q.parent == name) ++children;
  if (children > 0)
    out.push_back(webhookError(" can only submit job to leaf queue, queue `" + name + "` has " +
                                   std::to_string(children) + " child queues;",
                               "spec.queue"));
  return out;
}

std::optional<WebhookError> dependencyError(const Job& job) {
  std::map<std::string, int> inDegree;
  std::map<std::string, std::set<std::string>> edges;  // dependency -> dependents (a Go map[string]bool)
  for (const auto& task : job.spec.tasks) {
    inDegree[task.name] = 0;  // a repeated task name restarts at 0, as in Go
    if (!task.dependsOn) continue;
    for (const auto& dep : task.dependsOn->name) {
      edges[dep].insert(task.name);
      ++inDegree[task.name];
    }
  }
  std::vector<std::string> stack;
  for (const auto& [task, degree] : inDegree)
    if (degree == 0) stack.push_back(task);
  size_t sorted = 0;
  while (!stack.empty()) {
    const std::string out = std::move(stack.back());
    stack.pop_back();
    ++sorted;
    for (const auto& in : edges[out])
      if (--inDegree[in] == 0) stack.push_back(in);
    edges[out].clear();
  }
  if (sorted == job.spec.tasks.size()) return std::nullopt;
  std::string field = "spec.tasks";
  for (size_t i = 0; i < job.spec.tasks.size(); ++i)
    if (job.spec.tasks[i].dependsOn && inDegree[job.spec.tasks[i].name] > 0) {
      field = "spec.tasks[" + std::to_string(i) + "].dependsOn";
      break;
    }
  return webhookError(" job has dependencies between tasks, but doesn't form a directed acyclic graph(DAG);", field);
}

}  // namespace jobhost
