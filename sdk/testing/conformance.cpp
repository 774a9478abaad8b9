// The conformance checks: driven through the host's own PluginJobPlugins, HookContext and
// admission against an in-memory ObjectStore, so the plugin meets exactly what production gives it.
#include "jobhost/testing/conformance.h"

#include <stdexcept>

#include "harness_state.h"
#include "host/admission/admission.h"
#include "host/plugin/hook_context.h"
#include "host/plugin/object_store.h"
#include "host/plugin/plugin_validation.h"

namespace jobhost::testing {
namespace {

constexpr const char* kUnknownFlag = "jobhost-conformance-unknown-flag";

/// A JobContext whose every service throws, as a broken host service would.
class ThrowingContext final : public JobContext {
 public:
  const Job& job() const override { fail(); }
  std::map<std::string, std::string>& controlledResources() override { fail(); }
  const PluginArgs& args() const override { fail(); }
  const Components& built() const override { fail(); }
  const RuntimeInfo& runtimeInfo() const override { fail(); }
  ResourceClient& resources() override { fail(); }
  void setEnv(Container&, EnvVar) override { fail(); }
  std::shared_ptr<void>* pluginData() override { fail(); }

 private:
  [[noreturn]] static void fail() { throw std::runtime_error("conformance: host service unavailable"); }
};

struct Snapshot {
  Components objects;
  std::map<std::string, std::string> controlled;
  friend bool operator==(const Snapshot&, const Snapshot&) = default;
};

std::string describe(const Snapshot& s) {
  std::string out = "controlledResources {";
  for (const auto& [k, v] : s.controlled) out += " " + k + "=" + v;
  out += " }, objects {";
  for (const auto& o : s.objects.configMaps) out += " ConfigMap " + o.metadata.name;
  for (const auto& o : s.objects.secrets) out += " Secret " + o.metadata.name;
  for (const auto& o : s.objects.services) out += " Service " + o.metadata.name;
  for (const auto& o : s.objects.networkPolicies) out += " NetworkPolicy " + o.metadata.name;
  return out + " }";
}

class Checker {
 public:
  Checker(Harness::State& s, ConformanceReport& r) : s_(s), r_(r) {}

  void check(const std::string& name, bool passed, const std::string& failure) {
    r_.checks.push_back(name);
    if (!passed) r_.failures.push_back(name + ": " + failure);
  }

  void unknownFlag(const Job& job, const RegisteredPlugin& p) {
    Job j = job;
    j.spec.plugins[p.names[0]].push_back(std::string("--") + kUnknownFlag + "=1");
    AdmissionResult a = validateJobCreate(j, admissionConfig(s_.config, *s_.registry));
    bool named = false;
    for (const auto& w : a.warnings)
      named = named || (w.find(p.names[0]) != std::string::npos &&
                        w.find(std::string("-") + kUnknownFlag) != std::string::npos);
    std::string failure;
    if (!a.allowed)
      failure = "admission rejected the job (Volcano runs it: report the flag with ignoredFlagWarning)";
    else if (!named)
      failure = (p.loaded.capabilities & kValidation)
                    ? "admission did not warn about -" + std::string(kUnknownFlag)
                    : "the plugin implements no Validation, so its flags go unchecked";
    check(p.names[0] + ": unknown flag is an admission warning naming plugin and flag", failure.empty(), failure);
  }

  void hooks(const Job& job) {
    PluginJobPlugins pj(s_.registry, s_.config.priorityClasses);
    if (Status st = pj.prepare(job); !st) return check("pipeline", false, st.message());
    ObjectStore store;
    Job j = job;
    auto snap = [&] { return Snapshot{store.objects(), j.status.controlledResources}; };
    const Snapshot before = snap();
    twice("OnJobAdd", [&] { return pj.onJobAdd(j, store); }, snap);
    const Snapshot added = snap();
    podCreate(pj, j);
    twice("OnJobUpdate", [&] { return pj.onJobUpdate(j, store); }, snap);
    twice("OnJobDelete", [&] { return pj.onJobDelete(j, store); }, snap);
    check("OnJobDelete undoes OnJobAdd", snap() == before,
          "after OnJobAdd: " + describe(added) + "; after OnJobDelete: " + describe(snap()));
    for (const auto& a : s_.registry->activeAt(Point::JobHooks, job)) contained(pj, job, a);
  }

 private:
  template <class Call, class Snap>
  void twice(const std::string& hook, Call call, Snap snap) {
    Status first = call();
    const Snapshot once = snap();
    Status second = call();
    check(hook + " twice is idempotent", first && second && snap() == once,
          !first ? first.message() : !second ? second.message()
                                             : "once: " + describe(once) + "; twice: " + describe(snap()));
  }

  void podCreate(PluginJobPlugins& pj, const Job& j) {
    auto prepared = pj.prepared(j);
    if (!prepared) return check("OnPodCreate twice is idempotent", false, prepared.error());
    const PipelineResult& r = **prepared;
    const auto active = s_.registry->activeAt(Point::JobHooks, j);
    for (size_t t = 0; t < j.spec.tasks.size(); ++t)
      for (int32_t i = 0; i < j.spec.tasks[t].replicas && i < 2; ++i) {
        auto pod = pj.makePod(j, t, i);
        if (!pod) return check("OnPodCreate twice is idempotent", false, pod.error());
        Pod again = *pod;
        auto controlled = ControlledResources::copyOf(j.status.controlledResources);
        HookEnv env("pod", pod->metadata.name);
        for (const auto& a : active) {
          const PluginShare share{&a.plugin->names[0], &a.args, &r.builtBy(a.plugin), nullptr};  // no slot: derived afresh
          HookContext ctx(j, *r.info, share, controlled, nullptr, env);
          Status st = a.plugin->loaded.instance->jobHooks()->onPodCreate(ctx, again);
          if (!st) return check(a.plugin->names[0] + ": OnPodCreate twice is idempotent", false, st.message());
        }
        check("OnPodCreate twice is idempotent (" + pod->metadata.name + ")", again == *pod,
              "the pod changed when OnPodCreate ran again on it");
      }
  }

  void contained(PluginJobPlugins& pj, const Job& job, const ActivePlugin& a) {
    const std::string name = a.plugin->names[0];
    JobHooksPlugin* hooks = a.plugin->loaded.instance->jobHooks();
    ThrowingContext ctx;
    Pod pod;
    const std::pair<const char*, std::function<Status()>> calls[] = {
        {"OnJobAdd", [&] { return hooks->onJobAdd(ctx); }},
        {"OnPodCreate", [&] { return hooks->onPodCreate(ctx, pod); }},
        {"OnJobUpdate", [&] { return hooks->onJobUpdate(ctx); }},
        {"OnJobDelete", [&] { return hooks->onJobDelete(ctx); }}};
    for (const auto& [hook, call] : calls) {
      std::string failure;
      try {
        Status st = call();
        if (!st && st.message().find(std::string(hook) + " threw an exception") == std::string::npos)
          failure = "error does not say the call threw: " + st.message();
      } catch (const std::exception& e) {
        failure = std::string("an exception escaped the plugin: ") + e.what() + " (build it with JOBHOST_PLUGIN)";
      }
      check(name + ": " + hook + " with a throwing host service is contained", failure.empty(), failure);
    }
    injectThrow(*a.plugin->loaded.instance, "OnJobAdd", "conformance: injected");
    ObjectStore store;
    Job j = job;
    Status st = pj.onJobAdd(j, store);
    injectThrow(*a.plugin->loaded.instance, "", "");
    check(name + ": a throwing OnJobAdd is reported naming the plugin",
          !st && st.message().find("\"" + name + "\"") != std::string::npos &&
              st.message().find("conformance: injected") != std::string::npos,
          st ? "the hook error was lost" : st.message());
  }

  Harness::State& s_;
  ConformanceReport& r_;
};

}  // namespace

ConformanceReport checkConformance(Harness& harness, std::string_view jobYaml) {
  ConformanceReport report;
  Harness::State& s = harness.state();
  if (!harness.ok()) {
    report.failures.push_back("the harness did not load: " + harness.loadError());
    return report;
  }
  Job job;
  Submission sub = s.admit(jobYaml, job);
  if (!sub) {
    report.failures.push_back("the conformance job must pass admission: " + sub.describe());
    return report;
  }
  if (job.metadata.uid.empty()) job.metadata.uid = "conformance-" + job.metadata.name;
  Checker checker(s, report);
  for (const auto& p : s.registry->plugins()) checker.unknownFlag(job, p);
  checker.hooks(job);
  return report;
}

}  // namespace jobhost::testing
