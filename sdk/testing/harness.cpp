// Harness construction and driving: plugins loaded through the production loader (or adopted
// in-process) behind recording proxies, admission as the CLI does it, the sim cluster on virtual time.
#include "jobhost/testing/harness.h"

#include <algorithm>
#include <stdexcept>

#include "host/admission/admission.h"
#include "host/admission/mutation.h"
#include "host/common/log.h"
#include "host/plugin/plugin_validation.h"
#include "host/spec/job_loader.h"
#include "harness_checks.h"
#include "harness_state.h"
#include "plugin_sources.h"

namespace jobhost::testing {
namespace {

PodBehaviour behaviourOf(const PodScript& s) {
  PodBehaviour b;
  b.startAfterMs = s.startAfterMs;
  b.readyAfterMs = s.readyAfterMs;
  b.runForMs = s.runForMs;
  b.exitCode = s.exitCode;
  b.restartsAtMs = s.restartsAtMs;
  return b;
}

std::string notFound(const char* what, std::string_view name) {
  return std::string("jobhost::testing: no ") + what + " \"" + std::string(name) + "\"";
}

}  // namespace

PodScript runsFor(int64_t ms, int32_t exitCode) {
  PodScript s;
  s.runForMs = ms;
  s.exitCode = exitCode;
  return s;
}

PodScript runsForever() { return PodScript{}; }

const RegisteredPlugin& Harness::State::plugin(std::string_view name) const {
  if (registry)
    if (const RegisteredPlugin* p = registry->find(name)) return *p;
  std::vector<std::string> loaded;
  if (registry)
    for (const auto& p : registry->plugins()) loaded.push_back(p.names[0]);
  throw std::out_of_range(notFound("plugin", name) + " (plugins: " + listed(loaded) + ")");
}

Submission Harness::State::admit(std::string_view yaml, Job& job) {
  Submission out;
  auto docs = parseJobs(yaml, "<job>");
  if (!docs) {
    out.error = docs.error();
    return out;
  }
  if (docs->size() != 1) {
    out.error = "jobhost::testing: the YAML holds " + std::to_string(docs->size()) + " jobs; give exactly one";
    return out;
  }
  job = std::move(docs->front().job);
  mutateJob(job, MutationConfig{config.schedulerNames});
  AdmissionResult r = validateJobCreate(job, admissionConfig(config, *registry));
  out.admitted = r.allowed;
  out.errors = std::move(r.errors);
  out.warnings = std::move(r.warnings);
  return out;
}

Harness::Harness(std::vector<PluginSource> sources, std::string_view configJson)
    : state_(std::make_unique<State>()) {
  State& s = *state_;
  auto config = parseHostConfig(configJson, "<harness config>");
  if (!config) {
    s.error = config.error();
    return;
  }
  s.config = std::move(*config);
  for (auto& src : sources) {
    PluginEntry e;
    e.name = src.name;
    e.path = src.entry ? "" : src.path;
    e.args = src.args;
    e.aliases = src.aliases;
    e.activation = src.always ? Activation::Always : Activation::Job;
    e.where = "<harness plugin>";
    s.config.plugins.push_back(std::move(e));
  }
  const auto searchPath = harnessSearchPath(s.config);
  std::vector<RegisteredPlugin> plugins;
  for (size_t i = 0; i < s.config.plugins.size(); ++i) {
    PluginEntry& e = s.config.plugins[i];
    const size_t fromConfig = s.config.plugins.size() - sources.size();
    const jobhost_plugin_entry_fn entry = i >= fromConfig ? sources[i - fromConfig].entry : nullptr;
    LoadRequest req{e.name, e.path, s.config.baseDir, searchPath, e.args};
    auto loaded = entry ? adoptPlugin(entry, req) : loadPlugin(req);
    if (!loaded && !e.required) {  // as Registry::load: an optional plugin is skipped with a warning
      log::get("loader")->warn("skipping optional plugin: {}", loaded.error());
      continue;
    }
    if (!loaded) {
      const bool fromSharedObject = i >= fromConfig && !e.path.empty();
      s.error = fromSharedObject ? sharedObjectLoadError(loaded.error(), e.path) : loaded.error();
      return;
    }
    if (e.name.empty()) e.name = loaded->name;
    RegisteredPlugin r;
    r.entry = e;
    r.names.push_back(e.name);
    r.names.insert(r.names.end(), e.aliases.begin(), e.aliases.end());
    r.loaded = std::move(*loaded);
    r.loaded.instance = recordingPlugin(e.name, r.loaded.instance, s.log);
    plugins.push_back(std::move(r));
  }
  auto registry = Registry::fromLoaded(std::move(plugins), s.config);
  if (!registry) {
    s.error = registry.error();
    return;
  }
  s.registry = *registry;
  s.jobPlugins = std::make_unique<PluginJobPlugins>(s.registry, s.config.priorityClasses);
  s.sim = std::make_unique<SimCluster>(s.clock, s.config.sim);
  s.sim->setBehaviour([&s](const Pod& pod, int incarnation) {
    auto it = s.scripts.find(pod.metadata.name);
    if (it != s.scripts.end() && incarnation >= 1 && static_cast<size_t>(incarnation) <= it->second.size())
      return behaviourOf(it->second[static_cast<size_t>(incarnation) - 1]);
    return behaviourOf(s.defaultScript);
  });
  s.backend = std::make_unique<RecordingBackend>(*s.sim);
  s.controller = std::make_unique<Controller>(s.config.controller, s.clock, *s.backend, *s.jobPlugins);
  s.controller->setObserver([&s](const HandledRequest& r) {
    if (r.error.empty()) return;
    std::lock_guard lock(s.errorsMutex);
    s.syncErrors.push_back(r.error);
  });
  s.driver = std::make_unique<SimDriver>(s.clock, *s.sim, *s.controller);
  s.controller->start();
}

Harness::~Harness() {
  if (state_->controller) state_->controller->stop();
}

bool Harness::ok() const { return state_->error.empty(); }
const std::string& Harness::loadError() const { return state_->error; }

std::vector<std::string> Harness::pluginNames() const {
  std::vector<std::string> out;
  if (state_->registry)
    for (const auto& p : state_->registry->plugins()) out.push_back(p.names[0]);
  return out;
}

uint32_t Harness::capabilities(std::string_view plugin) const {
  const RegisteredPlugin* p = state_->registry ? state_->registry->find(plugin) : nullptr;
  return p ? p->loaded.capabilities : 0;
}

Harness::PluginInfo Harness::pluginInfo(std::string_view plugin) const {
  const LoadedPlugin& p = state_->plugin(plugin).loaded;
  return PluginInfo{p.name, p.version, p.file, p.capabilities};
}

PluginInstance& Harness::plugin(std::string_view name) { return *state_->plugin(name).loaded.instance; }

Submission Harness::admit(std::string_view jobYaml) {
  if (!ok()) return Submission{false, {}, {}, "jobhost::testing: the harness did not load: " + loadError()};
  Job job;
  return state_->admit(jobYaml, job);
}

Submission Harness::submit(std::string_view jobYaml) {
  State& s = *state_;
  if (!ok()) return Submission{false, {}, {}, "jobhost::testing: the harness did not load: " + loadError()};
  if (s.submitted) return Submission{false, {}, {}, "jobhost::testing: one job per harness"};
  Job job;
  Submission out = s.admit(jobYaml, job);
  if (!out.admitted || !out.error.empty()) return out;
  for (const auto& [pod, incarnations] : s.scripts) checkPodOfJob(job, pod, "scriptPod(\"" + pod + "\")");
  for (const auto& v : job.spec.volumes)
    if (!v.volumeClaimName.empty()) s.sim->addPvc(job.metadata.namespace_, v.volumeClaimName);
  if (Status st = s.controller->submitJob(job); !st) {
    out.error = st.message();
    return out;
  }
  s.submitted = std::move(job);
  s.driver->settle();
  return out;
}

void Harness::scriptPod(std::string podName, std::vector<PodScript> incarnations) {
  State& s = *state_;
  if (s.submitted) {
    const std::string call = "scriptPod(\"" + podName + "\")";
    checkPodOfJob(*s.submitted, podName, call);
    if (const int created = podCreations(podName); created > 0)
      throw std::logic_error("jobhost::testing: " + call + " after the pod was created (" + std::to_string(created) +
                             " time(s)): incarnations[0] is its first creation, so call scriptPod before submit()");
  }
  s.scripts[std::move(podName)] = std::move(incarnations);
}

void Harness::scriptDefault(PodScript script) { state_->defaultScript = std::move(script); }

void Harness::evict(std::string_view podName) {
  const Job j = job();
  const std::vector<std::string> pods = podNames();
  if (std::find(pods.begin(), pods.end(), podName) == pods.end())
    throw std::invalid_argument("jobhost::testing: evict(\"" + std::string(podName) +
                                "\"): no such pod exists now (pods: " + listed(pods) + ")");
  state_->sim->evictPod(j.metadata.namespace_, std::string(podName));
  state_->driver->settle();
}

void Harness::writeObjects(const Components& objects) {
  if (!state_->backend->applyObjects(job().metadata.namespace_, objects).ok())
    throw std::runtime_error("the sim cluster refused the objects");
}

void Harness::deleteObject(ObjectKind kind, std::string_view name) {
  const ClusterStatus st = state_->backend->removeObject(job().metadata.namespace_, kind, std::string(name));
  if (!st.ok()) throw std::out_of_range(st.message);
}

void Harness::command(std::string_view action, std::string_view task, std::string_view pod) {
  const Job j = job();
  checkCommand(j, action, task, pod);
  Command c{j.metadata.namespace_, j.metadata.name, std::string(action), std::string(task), std::string(pod), {}};
  if (Status st = state_->controller->issueCommand(c); !st)
    throw std::invalid_argument("jobhost::testing: command refused: " + st.message());
  state_->driver->settle();
}

void Harness::advance(int64_t ms) { state_->driver->advance(ms); }

bool Harness::runUntilFinished(int64_t limitMs) {
  State& s = *state_;
  const Job j = job();
  auto finished = [&] {
    auto current = s.controller->getJob(j.metadata.namespace_, j.metadata.name);
    return !current || isFinished(current->status.state.phase);
  };
  s.driver->runUntil(s.clock.now() + limitMs, finished);
  return finished();
}

int64_t Harness::now() const { return state_->clock.now(); }

Job Harness::job() const {
  const State& s = *state_;
  if (!s.submitted) throw std::logic_error("jobhost::testing: no job submitted yet");
  auto current = s.controller->getJob(s.submitted->metadata.namespace_, s.submitted->metadata.name);
  if (!current) throw std::logic_error("jobhost::testing: the job no longer exists (deleted by its TTL)");
  return *current;
}

JobPhase Harness::phase() const { return job().status.state.phase; }
int32_t Harness::retryCount() const { return job().status.retryCount; }

std::vector<std::string> Harness::podNames() const {
  std::vector<std::string> out;
  if (!state_->submitted) return out;
  const std::string prefix = state_->submitted->metadata.namespace_ + "/";
  for (auto& key : state_->sim->podNames())
    out.push_back(key.rfind(prefix, 0) == 0 ? key.substr(prefix.size()) : key);
  return out;
}

PodView Harness::pod(std::string_view name) const {
  auto created = state_->backend ? state_->backend->created(std::string(name)) : nullptr;
  if (!created) {
    std::string known;
    for (const auto& n : podNames()) known += (known.empty() ? "" : ", ") + n;
    throw std::out_of_range(notFound("pod", name) + " (pods: " + (known.empty() ? "none" : known) + ")");
  }
  Pod p = *created;
  if (auto st = state_->sim->getPod(p.metadata.namespace_, p.metadata.name)) p.status = st->status;
  return PodView(std::move(p));
}

int Harness::podCreations(std::string_view name) const {
  return state_->backend ? state_->backend->creations(std::string(name)) : 0;
}

Components Harness::resources() const {
  if (!state_->submitted) return {};
  return state_->backend->objects(state_->submitted->metadata.namespace_);
}

namespace {
template <class T>
T findByName(const std::vector<T>& list, std::string_view name, const char* kind) {
  for (const auto& o : list)
    if (o.metadata.name == name) return o;
  throw std::out_of_range(notFound(kind, name));
}
}  // namespace

ConfigMap Harness::configMap(std::string_view name) const {
  return findByName(resources().configMaps, name, "ConfigMap");
}
Secret Harness::secret(std::string_view name) const { return findByName(resources().secrets, name, "Secret"); }
Service Harness::service(std::string_view name) const {
  return findByName(resources().services, name, "Service");
}
NetworkPolicy Harness::networkPolicy(std::string_view name) const {
  return findByName(resources().networkPolicies, name, "NetworkPolicy");
}

std::optional<PodGroup> Harness::podGroup() const {
  if (!state_->submitted) return std::nullopt;
  return state_->sim->getPodGroup(state_->submitted->metadata.namespace_, state_->backend->podGroupName());
}

std::vector<std::string> Harness::hookCalls() const { return state_->log->calls(); }
void Harness::clearHookCalls() { state_->log->clear(); }

std::vector<std::string> Harness::syncErrors() const {
  std::lock_guard lock(state_->errorsMutex);
  return state_->syncErrors;
}

void Harness::injectThrow(std::string_view plugin, std::string call, std::string what) {
  jobhost::testing::injectThrow(*state_->plugin(plugin).loaded.instance, std::move(call), std::move(what));
}

}  // namespace jobhost::testing
