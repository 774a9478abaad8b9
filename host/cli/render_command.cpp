// `jobhost render JOB`: a Kubernetes v1 List of every object the job creates when it starts, in a
// fixed order: Job, PersistentVolumeClaims, PodGroup, ConfigMaps, Secrets, Services, NetworkPolicies, Pods.
#include <ostream>
#include <string>

#include "host/cli/cli.h"
#include "host/cli/job_intake.h"
#include "host/plugin/job_render.h"
#include "host/plugin/plugin_job_plugins.h"
#include "host/spec/encode.h"
#include "host/spec/writers.h"
#include "host/workload/names.h"
#include "jobhost/volcano.h"

namespace jobhost::cli {
namespace {

void appendRendered(const RenderedJob& r, rapidjson::Value& items, JsonAllocator& a, bool showSecrets) {
  items.PushBack(encodeJob(r.job, a, EncodeOptions{!showSecrets}), a);
  for (size_t index : r.createdClaims) {
    const JobVolume& volume = r.job.spec.volumes[index];
    ObjectMeta meta;
    meta.name = volume.volumeClaimName;
    meta.namespace_ = r.job.metadata.namespace_;
    meta.ownerReferences = {volcano::controllerRef(r.job)};
    items.PushBack(encodePersistentVolumeClaim(meta, *volume.volumeClaim, a), a);
  }
  items.PushBack(encodePodGroup(r.podGroup, a), a);
  for (const auto& o : r.objects.configMaps) items.PushBack(encodeConfigMap(o, a), a);
  for (const auto& o : r.objects.secrets) items.PushBack(encodeSecret(o, a, EncodeOptions{!showSecrets}), a);
  for (const auto& o : r.objects.services) items.PushBack(encodeService(o, a), a);
  for (const auto& o : r.objects.networkPolicies) items.PushBack(encodeNetworkPolicy(o, a), a);
  for (const auto& p : r.pods) items.PushBack(encodePod(p, a), a);
}

/// Render lists every pod, but Volcano creates the pods of a task with dependsOn only once its
/// dependencies are ready (spec §6.4): one note per such task says what it waits for.
void noteGatedTasks(const std::string& file, const Job& job, std::ostream& err) {
  for (const auto& task : job.spec.tasks) {
    if (!task.dependsOn) continue;
    const auto& names = task.dependsOn->name;
    std::string waits;  // each dependency that is not ready from the start
    for (const auto& n : names) {
      const TaskSpec* dep = job.findTask(n);  // a missing one is rejected by admission before render
      const int32_t min = dep && dep->minAvailable ? *dep->minAvailable : 0;
      if (min <= 0) continue;
      waits += (waits.empty() ? "" : ", ") + ("task " + n + " has " + std::to_string(min) + " pod") +
               (min == 1 ? "" : "s") + " Running with every container ready, or Succeeded";
    }
    if (waits.empty()) continue;
    const bool any = names.size() > 1 && task.dependsOn->iteration == "any";
    err << file << ": note: job " << jobKey(job) << ": the pods of task " << task.name
        << " are listed, but Volcano creates them only once " << (names.size() > 1 ? (any ? "any of: " : "all of: ") : "")
        << waits << "\n";
  }
}

}  // namespace

int renderCommand(const Args& args, Streams io) {
  if (args.positionals.size() != 1) {
    io.err << "jobhost render: give exactly one job file\n";
    return kUsage;
  }
  const std::string format = args.get("o").value_or(args.get("output").value_or("yaml"));
  if (format != "yaml" && format != "json") {
    io.err << "jobhost render: -o must be yaml or json, not \"" << format << "\"\n";
    return kUsage;
  }
  int rc = kOk;
  auto host = loadHostSetup(args, io, &rc);
  if (!host) return rc;
  const HostConfig* config = &host->config;
  auto jobs = admitJobFile(args.positionals[0], *config, host->admission, io.err);
  if (!jobs) {
    io.err << jobs.error() << "\n";
    return kInputError;
  }
  if (jobs->empty()) {  // a queues-only file
    io.err << "jobhost render: " << args.positionals[0] << " holds no job; render takes one or more\n";
    return kInputError;
  }
  PluginJobPlugins plugins(host->registry, config->priorityClasses);
  rapidjson::Document list(rapidjson::kObjectType);
  auto& a = list.GetAllocator();
  rapidjson::Value items(rapidjson::kArrayType);
  for (const auto& job : *jobs) {
    if (!job.admission.allowed) {
      io.err << args.positionals[0] << ": job " << jobKey(job.document.job) << ": rejected\n";
      printFindings(job, io.err);
      rc = kRejected;
      continue;
    }
    printFindings(job, io.err);  // an admitted job's warnings
    auto rendered = renderJob(plugins, job.document.job, job.forwarded);
    if (!rendered) {
      io.err << args.positionals[0] << ": job " << jobKey(job.document.job) << ": " << rendered.error() << "\n";
      rc = kRejected;
      continue;
    }
    noteGatedTasks(args.positionals[0], rendered->job, io.err);
    appendRendered(*rendered, items, a, args.has("show-secrets"));
  }
  if (rc != kOk) return rc;
  list.AddMember("apiVersion", "v1", a);
  list.AddMember("kind", "List", a);
  list.AddMember("items", items, a);
  list.AddMember("metadata", rapidjson::Value(rapidjson::kObjectType), a);
  io.out << (format == "json" ? toJson(list, true) + "\n" : toYaml(list));
  return kOk;
}

}  // namespace jobhost::cli
