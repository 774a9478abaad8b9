// The conformance checks: driven through the host's own PluginJobPlugins, HookContext, call guard
// and admission against an in-memory ObjectStore, one plugin per hook call so each failure names it.
#include "jobhost/testing/conformance.h"

#include <set>
#include <stdexcept>

#include "harness_state.h"
#include "hook_snapshot.h"
#include "host/admission/admission.h"
#include "host/plugin/hook_context.h"
#include "host/plugin/object_store.h"
#include "host/plugin/plugin_call.h"
#include "host/plugin/plugin_validation.h"
#include "host/workload/pod.h"
#include "pod_diff.h"

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
                    : "the plugin implements no Validation, so its flags go unchecked (implement "
                      "ValidationPlugin and warn with ignoredFlagWarning)";
    check(p.names[0] + ": unknown flag is an admission warning naming plugin and flag", failure.empty(), failure);
  }

  void hooks(const Job& job) {
    PluginJobPlugins pj(s_.registry, s_.config.priorityClasses);
    if (Status st = pj.prepare(job); !st) return check("pipeline", false, st.message());
    auto prepared = pj.prepared(job);
    if (!prepared) return check("pipeline", false, prepared.error());
    const PipelineResult& r = **prepared;
    const auto active = s_.registry->activeAt(Point::JobHooks, job);
    HookRun run{job, r};
    const HookSnapshot before = run.snapshot();
    for (const auto& a : active) twice(run, a, "OnJobAdd");
    podCreate(run.job, r, active);
    for (const auto& a : active) twice(run, a, "OnJobUpdate");
    for (const auto& a : active) twice(run, a, "OnJobDelete");
    const auto left = differences(before, run.snapshot());
    for (const auto& a : active) {
      std::map<std::string, std::string> notUndone;
      for (const auto& item : run.touched[a.plugin])
        if (auto it = left.find(item); it != left.end()) notUndone.insert(*it);
      check(a.plugin->names[0] + ": OnJobDelete undoes OnJobAdd", notUndone.empty(),
            "still changed after OnJobDelete: " + describe(notUndone));
    }
    for (const auto& a : active) contained(pj, job, a);
  }

 private:
  /// The job-hook state of the suite's run: the job, its object store, each plugin's data slot
  /// (kept across its calls, as the host keeps it), and the items each plugin's calls changed.
  struct HookRun {
    HookRun(const Job& j, const PipelineResult& r) : job(j), result(r) {}
    Job job;
    const PipelineResult& result;
    ObjectStore store;
    std::map<const RegisteredPlugin*, std::shared_ptr<void>> slots;
    std::map<const RegisteredPlugin*, std::set<std::string>> touched;

    HookSnapshot snapshot() const { return HookSnapshot{store.objects(), job.status.controlledResources}; }

    /// One call of `hook` on plugin `a` alone, through the host's call guard.
    Status call(const ActivePlugin& a, const std::string& hook) {
      const PluginShare share{&a.plugin->names[0], &a.args, &result.builtBy(a.plugin), &slots[a.plugin]};
      auto controlled = ControlledResources::of(job.status.controlledResources);
      HookEnv env("job", job.metadata.name);
      HookContext ctx(job, *result.info, share, controlled, &store, env);
      JobHooksPlugin* hooks = a.plugin->loaded.instance->jobHooks();
      const HookSnapshot before = snapshot();
      Status st = callPlugin(*a.plugin, hook.c_str(), [&] {
        if (hook == "OnJobAdd") return hooks->onJobAdd(ctx);
        if (hook == "OnJobUpdate") return hooks->onJobUpdate(ctx);
        return hooks->onJobDelete(ctx);
      });
      for (const auto& [item, what] : differences(before, snapshot())) touched[a.plugin].insert(item);
      return st;
    }
  };

  void twice(HookRun& run, const ActivePlugin& a, const std::string& hook) {
    const std::string name = a.plugin->names[0] + ": " + hook + " twice is idempotent";
    if (Status first = run.call(a, hook); !first) return check(name, false, first.message());
    const HookSnapshot once = run.snapshot();
    if (Status second = run.call(a, hook); !second) return check(name, false, second.message());
    const auto diff = differences(once, run.snapshot());
    check(name, diff.empty(), "the second call changed " + describe(diff));
  }

  /// The first two pods of each task built as the host builds them, each plugin's OnPodCreate run in
  /// config order and, right after, again on the pod it produced: a change is that plugin's.
  void podCreate(const Job& j, const PipelineResult& r, const std::vector<ActivePlugin>& active) {
    for (size_t t = 0; t < j.spec.tasks.size(); ++t)
      for (int32_t i = 0; i < j.spec.tasks[t].replicas && i < 2; ++i) {
        const PodSet* podSet = t < r.info->podSets.size() ? &r.info->podSets[t] : nullptr;
        Pod pod = buildPod(j, j.spec.tasks[t], i, podSet, &r.info->scheduler);
        auto controlled = ControlledResources::copyOf(j.status.controlledResources);
        HookEnv env("pod", pod.metadata.name);
        for (const auto& a : active) {
          const std::string name = a.plugin->names[0] + ": OnPodCreate twice is idempotent (" + pod.metadata.name + ")";
          if (Status st = onPodCreate(j, r, a, controlled, env, pod); !st) return check(name, false, st.message());
          Pod again = pod;
          HookEnv againEnv("pod", pod.metadata.name);
          if (Status st = onPodCreate(j, r, a, controlled, againEnv, again); !st)
            return check(name, false, st.message());
          check(name, again == pod, "running it again on its own output changed " + describePodChange(pod, again));
        }
      }
  }

  static Status onPodCreate(const Job& j, const PipelineResult& r, const ActivePlugin& a,
                            ControlledResources& controlled, HookEnv& env, Pod& pod) {
    const PluginShare share{&a.plugin->names[0], &a.args, &r.builtBy(a.plugin), nullptr};  // no slot: derived afresh
    HookContext ctx(j, *r.info, share, controlled, nullptr, env);
    return callPlugin(*a.plugin, "OnPodCreate",
                      [&] { return a.plugin->loaded.instance->jobHooks()->onPodCreate(ctx, pod); });
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
