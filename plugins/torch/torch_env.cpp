// Values, env list and init container of the torch plugin (Volcano's pytorch OnPodCreate
// plus Trainer's torchrun variables). Pure functions of the job, the flags and the pod.
#include "torch_env.h"

#include <algorithm>
#include <charconv>
#include <set>

namespace torch {

std::optional<TorchJob> torchJob(const jobhost::Job& job, const TorchOptions& options) {
  const jobhost::TaskSpec* master = job.findTask(options.master);
  if (master == nullptr) return std::nullopt;
  TorchJob out;
  const auto& spec = master->template_.spec;
  const std::string host = spec.hostname.empty() ? job.metadata.name + "-" + master->name + "-0" : spec.hostname;
  out.masterAddr = host + "." + (spec.subdomain.empty() ? job.metadata.name : spec.subdomain);
  for (const auto& task : job.spec.tasks)
    if (task.name == options.master || task.name == options.worker) out.worldSize += task.replicas;
  return out;
}

jobhost::Status rankOf(const TorchOptions& options, const std::string& taskKey,
                       const std::string& podIndex, std::optional<int64_t>& rank) {
  rank.reset();
  if (taskKey == options.worker) {
    int64_t index = 0;
    const char* end = podIndex.data() + podIndex.size();
    auto [p, ec] = std::from_chars(podIndex.data(), end, index);
    if (podIndex.empty() || ec != std::errc() || p != end)
      return jobhost::Status::error("plugin torch: cannot compute RANK: pod index \"" + podIndex +
                                    "\" (the pod-name suffix) is not a number");
    rank = index + 1;
  } else if (taskKey == options.master) {
    rank = 0;
  }
  return jobhost::Status::ok();
}

namespace {

// CPU of one container as Trainer counts it: the request unless it is zero or absent, then the
// limit; none when neither is set.
const jobhost::Quantity* cpuOf(const jobhost::ResourceRequirements& r) {
  if (auto it = r.requests.find("cpu"); it != r.requests.end() && !it->second.isZero()) return &it->second;
  if (auto it = r.limits.find("cpu"); it != r.limits.end()) return &it->second;
  return nullptr;
}

}  // namespace

std::string nprocPerNode(const TorchOptions& options, const std::vector<jobhost::Container>& containers) {
  if (options.nprocPerNode != "auto") return options.nprocPerNode;
  if (jobhost::gpusRequested(containers) > 0) return "auto";
  jobhost::Quantity cpu;
  for (const auto& c : containers)
    if (const jobhost::Quantity* q = cpuOf(c.resources)) cpu += *q;
  return std::to_string(std::max<int64_t>(1, cpu.value()));
}

std::vector<jobhost::EnvVar> torchEnv(const TorchJob& job, const TorchOptions& options,
                                      std::optional<int64_t> rank, const std::string& nproc) {
  using jobhost::EnvVar;
  const std::string port = std::to_string(options.port);
  const std::string world = std::to_string(job.worldSize);
  std::vector<EnvVar> env = {EnvVar::literal("MASTER_ADDR", job.masterAddr),
                             EnvVar::literal("MASTER_PORT", port), EnvVar::literal("WORLD_SIZE", world)};
  if (rank) env.push_back(EnvVar::literal("RANK", std::to_string(*rank)));
  env.push_back(EnvVar::literal("PET_NNODES", world));
  env.push_back(EnvVar::literal("PET_NPROC_PER_NODE", nproc));
  if (rank) env.push_back(EnvVar::literal("PET_NODE_RANK", std::to_string(*rank)));
  env.push_back(EnvVar::literal("PET_MASTER_ADDR", job.masterAddr));
  env.push_back(EnvVar::literal("PET_MASTER_PORT", port));
  return env;
}

bool isTorchrunEnv(const std::string& name) {
  static const std::set<std::string> kTorchrun = {"PET_NNODES", "PET_NPROC_PER_NODE", "PET_NODE_RANK",
                                                  "PET_MASTER_ADDR", "PET_MASTER_PORT"};
  return kTorchrun.count(name) != 0;
}

std::vector<jobhost::EnvVar> withoutUserTorchrunEnv(std::vector<jobhost::EnvVar> env, const jobhost::Job& job,
                                                    const std::string& task, const std::string& container) {
  if (jobPluginName(job) != "pytorch") return env;
  return jobhost::volcano::withoutTemplateEnv(std::move(env), job, task, container, isTorchrunEnv);
}

namespace {

// Volcano's script template; placeholders in order: addr, port, timeout, addr, port, addr, port.
std::string waitScript(const std::string& addr, const std::string& port, const std::string& timeout) {
  return "echo \"Waiting for master node " + addr + ":" + port + " to be ready...\"\n"
         "TIMEOUT=" + timeout + "\n"
         "ELAPSED=0\n"
         "until { nc -z " + addr + " " + port + " || echo > /dev/tcp/" + addr + "/" + port +
         "; } 2>/dev/null; do\n"
         "  if [ $ELAPSED -ge $TIMEOUT ]; then\n"
         "    echo \"Timeout waiting for master after ${TIMEOUT} seconds\"\n"
         "    exit 1\n"
         "  fi\n"
         "  echo \"Master not ready yet, retrying in 2 seconds... (elapsed: ${ELAPSED}s)\"\n"
         "  sleep 2\n"
         "  ELAPSED=$((ELAPSED + 2))\n"
         "done\n"
         "echo \"Master node is ready!\"";
}

}  // namespace

void addWaitForMaster(std::vector<jobhost::Container>& initContainers, const TorchOptions& options,
                      const std::string& masterAddr) {
  for (const auto& c : initContainers)
    if (c.name == "wait-for-master") return;
  jobhost::Container wait;
  wait.name = "wait-for-master";
  wait.image = options.waitMasterImage;
  wait.command = {"sh", "-c", waitScript(masterAddr, std::to_string(options.port), std::to_string(options.waitMasterTimeout))};
  initContainers.push_back(std::move(wait));
}

void moveToEnd(std::vector<jobhost::EnvVar>& env, const std::vector<jobhost::EnvVar>& order) {
  for (const auto& var : order) {
    auto it = std::find_if(env.begin(), env.end(), [&](const auto& e) { return e.name == var.name; });
    if (it != env.end()) std::rotate(it, it + 1, env.end());
  }
}

}  // namespace torch
