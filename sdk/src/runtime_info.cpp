// Upsert helpers with Trainer's matching rules, env-conflict tracking, and the SDK's enum names.
// Compiled into libjobhost_sdk so host and plugins share one definition.
#include "jobhost/runtime_info.h"

#include "jobhost/extension_points.h"

namespace jobhost {

bool upsertEnv(std::vector<EnvVar>& env, EnvVar var) {
  for (auto& e : env)
    if (e.name == var.name) return (e = std::move(var), true);
  if (env.size() == env.capacity()) env.reserve(2 * env.size() + 4);  // plugins add a few at a time
  env.push_back(std::move(var));
  return false;
}

bool upsertPort(std::vector<ContainerPort>& ports, ContainerPort port) {
  for (auto& p : ports)
    if (p.containerPort == port.containerPort || (!port.name.empty() && p.name == port.name))
      return (p = std::move(port), true);
  ports.push_back(std::move(port));
  return false;
}

bool upsertVolume(std::vector<Volume>& volumes, Volume volume) {
  for (auto& v : volumes)
    if (v.name == volume.name) return (v = std::move(volume), true);
  volumes.push_back(std::move(volume));
  return false;
}

bool upsertVolumeMount(std::vector<VolumeMount>& mounts, VolumeMount m) {
  for (auto& x : mounts)
    if (x.mountPath == m.mountPath) return (x = std::move(m), true);
  mounts.push_back(std::move(m));
  return false;
}

Container* findContainer(std::vector<Container>& containers, std::string_view name) {
  for (auto& c : containers)
    if (c.name == name) return &c;
  return nullptr;
}

const EnvVar* findEnv(const std::vector<EnvVar>& env, std::string_view name) {
  for (const auto& e : env)
    if (e.name == name) return &e;
  return nullptr;
}

namespace {
std::string describe(const EnvVar& e) {
  if (!e.valueFrom) return "\"" + e.value + "\"";
  const auto& f = *e.valueFrom;
  if (f.configMapKeyRef) return "configMapKeyRef " + f.configMapKeyRef->name + "/" + f.configMapKeyRef->key;
  if (f.secretKeyRef) return "secretKeyRef " + f.secretKeyRef->name + "/" + f.secretKeyRef->key;
  if (f.fieldRef) return "fieldRef " + f.fieldRef->fieldPath;
  return "resourceFieldRef";
}
}  // namespace

void EnvLedger::setEnv(std::string_view scope, Container& container, EnvVar var) {
  std::string key;
  key.reserve(scope.size() + container.name.size() + var.name.size() + 2);
  key.append(scope).push_back('\x1f');
  key.append(container.name).push_back('\x1f');
  key.append(var.name);
  Entry* found = nullptr;
  for (auto& e : entries_)
    if (e.key == key) found = &e;
  if (found != nullptr && found->plugin != actor_ && !(found->value == var)) {
    conflicts_.push_back("env var " + var.name + " in container \"" + container.name + "\" of " +
                         std::string(scope) + ": plugin \"" + actor_ + "\" sets " + describe(var) +
                         " but plugin \"" + found->plugin + "\" set " + describe(found->value) +
                         "; configure one of them not to set it");
  }
  if (found != nullptr) {
    found->plugin = actor_;
    found->value = var;
  } else {
    if (entries_.empty()) entries_.reserve(8);  // a pod's or a task's few variables, without regrowth
    entries_.push_back({std::move(key), actor_, var});
  }
  upsertEnv(container.env, std::move(var));
}

const char* toString(PodPhase phase) {
  switch (phase) {
    case PodPhase::Pending: return "Pending";
    case PodPhase::Running: return "Running";
    case PodPhase::Succeeded: return "Succeeded";
    case PodPhase::Failed: return "Failed";
    case PodPhase::Unknown: return "Unknown";
  }
  return "Unknown";
}

namespace {
constexpr std::pair<JobPhase, const char*> kJobPhases[] = {
    {JobPhase::None, ""},
    {JobPhase::Pending, "Pending"},
    {JobPhase::Aborting, "Aborting"},
    {JobPhase::Aborted, "Aborted"},
    {JobPhase::Running, "Running"},
    {JobPhase::Restarting, "Restarting"},
    {JobPhase::Completing, "Completing"},
    {JobPhase::Completed, "Completed"},
    {JobPhase::Terminating, "Terminating"},
    {JobPhase::Terminated, "Terminated"},
    {JobPhase::Failed, "Failed"},
};
}  // namespace

const char* toString(JobPhase phase) {
  for (const auto& [p, s] : kJobPhases)
    if (p == phase) return s;
  return "";
}

std::optional<JobPhase> parseJobPhase(std::string_view text) {
  for (const auto& [p, s] : kJobPhases)
    if (text == s) return p;
  return std::nullopt;
}

bool isFinished(JobPhase phase) {
  return phase == JobPhase::Completed || phase == JobPhase::Terminated || phase == JobPhase::Failed;
}

const char* toString(ObjectKind kind) {
  switch (kind) {
    case ObjectKind::ConfigMap: return "ConfigMap";
    case ObjectKind::Secret: return "Secret";
    case ObjectKind::Service: return "Service";
    case ObjectKind::NetworkPolicy: return "NetworkPolicy";
  }
  return "";
}

}  // namespace jobhost
