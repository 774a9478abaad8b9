// jobhost::testing::Harness: a host in a box for plugin authors. Loads plugins (from .so through
// the production loader, or in-process), admits a YAML job, runs it on the sim backend under virtual time.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "jobhost/testing/export.h"
#include "jobhost/descriptor.h"
#include "jobhost/extension_points.h"
#include "jobhost/job.h"
#include "jobhost/plugin.h"
#include "jobhost/testing/pod_view.h"
#include "jobhost/testing/printers.h"

namespace jobhost::testing {

/// One plugin to load. Build it with sharedObject(), shipped() or inProcess().
struct PluginSource {
  std::string name;                    // configured name ("" : the descriptor's)
  std::string path;                    // a .so file (sharedObject)
  jobhost_plugin_entry_fn entry = nullptr;  // in-process entry (inProcess)
  std::vector<std::string> args;       // the config's default args, Go flag syntax
  std::vector<std::string> aliases;    // other names jobs may use in spec.plugins
  bool always = false;                 // activation "always" instead of "job"
};
/// A plugin .so loaded through the production loader (dlopen, descriptor and ABI checks). A relative
/// `path` is taken from the working directory.
JOBHOST_TESTING_API PluginSource sharedObject(std::string path, std::vector<std::string> args = {});
/// libjobhost_<name>.so searched like the host searches: along $JOBHOST_PLUGIN_PATH when it is set,
/// else the config snippet's pluginPath, else <test binary>/../lib/jobhost/plugins (the build tree
/// and install layout) and then shippedPluginDir() (a test built out of tree against the installed
/// SDK). When it is not found, loadError() lists every directory looked in.
JOBHOST_TESTING_API PluginSource shipped(std::string name, std::vector<std::string> args = {});
/// The plugins shipped with this SDK: <directory of libjobhost_testing.so>/jobhost/plugins, i.e.
/// <prefix>/lib/jobhost/plugins when installed (found with dladdr; "" if that fails).
JOBHOST_TESTING_API std::string shippedPluginDir();
/// A plugin compiled into the test (its <target>_static library, whose entry
/// JOBHOST_DECLARE_STATIC_PLUGIN(<name>) declares): same descriptor checks and create(), no dlopen.
JOBHOST_TESTING_API PluginSource inProcess(jobhost_plugin_entry_fn entry, std::vector<std::string> args = {});

/// A plugin name (or version) given as a template argument: inProcess<MyPlugin, "my">().
template <size_t N>
struct FixedName {
  char text[N];
  constexpr FixedName(const char (&s)[N]) {  // NOLINT: implicit on purpose
    for (size_t i = 0; i < N; ++i) text[i] = s[i];
  }
};

namespace detail {
/// The descriptor JOBHOST_PLUGIN would build for T, as an in-process entry.
template <class T, FixedName Name, FixedName Version>
const jobhost_plugin_descriptor* factoryEntry() {
  JOBHOST_PLUGIN_DESCRIPTOR_BODY(T, Name.text, Version.text)
}
}  // namespace detail

/// A plugin class from the test itself (no JOBHOST_PLUGIN, no separate library): the factory is
/// the one JOBHOST_PLUGIN(T, Name, Version) would export, with its exception barrier, capability
/// bits and optional T::configure, and it passes the same loader checks as inProcess(entry).
/// For unit tests of a plugin class, or of small stand-in plugins next to the one under test.
template <class T, FixedName Name, FixedName Version = "0.0.0">
PluginSource inProcess(std::vector<std::string> args = {}) {
  return inProcess(&detail::factoryEntry<T, Name, Version>, std::move(args));
}

/// How one incarnation of a simulated pod behaves once bound to a node.
struct PodScript {
  int64_t startAfterMs = 1000;             // bound -> Running
  int64_t readyAfterMs = 0;                // Running -> containers ready
  std::optional<int64_t> runForMs;         // Running -> exit; nullopt: runs until deleted
  int32_t exitCode = 0;                    // 0: Succeeded, otherwise Failed
  std::vector<int64_t> restartsAtMs;       // after start: in-place container restarts
};
/// Runs for `ms` after starting, then exits with `exitCode`.
JOBHOST_TESTING_API PodScript runsFor(int64_t ms, int32_t exitCode = 0);
/// Runs until deleted (the default).
JOBHOST_TESTING_API PodScript runsForever();

/// What admission said about a submitted job. `error` is set instead when the YAML did not parse
/// or the controller refused the job (e.g. a pipeline plugin failed); admission's findings are in
/// `errors`, so a failure message shows describe(): `ASSERT_TRUE(s) << s.describe();`.
struct Submission {
  bool admitted = false;
  std::vector<FieldError> errors;
  std::vector<std::string> warnings;
  std::string error;
  explicit operator bool() const { return admitted && error.empty(); }
  /// One line: "admitted", "not admitted: <field>: <message>; ..." (or ": <error>"), or
  /// "admitted, but not submitted: <error>"; then " (warnings: <w>; ...)" when there are any.
  JOBHOST_TESTING_API std::string describe() const;
};
/// Streams describe(), so GoogleTest prints a Submission readably.
inline std::ostream& operator<<(std::ostream& os, const Submission& s) { return os << s.describe(); }

/// The host in a box. Not thread-safe: drive it from the test's thread. Time is virtual (starts
/// at 0) and moves only in advance()/runUntilFinished(); nothing sleeps.
class JOBHOST_TESTING_API Harness {
 public:
  /// Loads `plugins` in order after those the JSON `configJson` lists itself (same format as
  /// `jobhost --config`, examples/config/default.json). Check ok() / loadError() next.
  explicit Harness(std::vector<PluginSource> plugins, std::string_view configJson = "{}");
  ~Harness();
  Harness(const Harness&) = delete;
  Harness& operator=(const Harness&) = delete;

  bool ok() const;
  const std::string& loadError() const;
  /// Configured names of the loaded plugins, in config order.
  std::vector<std::string> pluginNames() const;
  /// Capability bits (jobhost::Capability) of a loaded plugin; 0 when unknown.
  uint32_t capabilities(std::string_view plugin) const;
  /// What the descriptor of a loaded plugin says; throws std::out_of_range when unknown.
  struct PluginInfo {
    std::string name, version, file;  // descriptor name, its version, the .so ("<in-process NAME>")
    uint32_t capabilities = 0;
  };
  PluginInfo pluginInfo(std::string_view plugin) const;
  /// The loaded instance (behind the recording proxy) for unit tests that call a point directly,
  /// e.g. h.plugin("env").jobHooks()->onPodCreate(ctx, pod) with a FakeJobContext
  /// (fake_context.h). Valid while the harness lives; throws std::out_of_range when unknown.
  PluginInstance& plugin(std::string_view name);

  /// Admission only (defaults, built-in rules, every Validation plugin); nothing runs.
  Submission admit(std::string_view jobYaml);
  /// Admits the job and, when admitted, submits it on the sim cluster and settles the current
  /// instant (the PodGroup, objects and pods are created). One job per harness.
  Submission submit(std::string_view jobYaml);

  // --- pods and resources of the submitted job (as created on the sim cluster) ---
  std::vector<std::string> podNames() const;  // pods that exist now, sorted
  /// The pod as created (after every OnPodCreate) with its current status. Throws
  /// std::out_of_range naming the pods that exist when there is no such pod.
  PodView pod(std::string_view name) const;
  int podCreations(std::string_view name) const;  // times a pod of that name was created
  /// Objects that exist now (ConfigMaps, Secrets, Services, NetworkPolicies), creation order.
  Components resources() const;
  ConfigMap configMap(std::string_view name) const;  // each throws std::out_of_range when absent
  Secret secret(std::string_view name) const;
  Service service(std::string_view name) const;
  NetworkPolicy networkPolicy(std::string_view name) const;
  std::optional<PodGroup> podGroup() const;

  // --- driving on virtual time ---
  /// How pods behave once created: `incarnations[i]` is the (i+1)-th incarnation of that pod name;
  /// later ones use the default. Call it before submit(): a script is read when its pod is created,
  /// so after the pod's first creation scriptPod throws std::logic_error naming the pod. A name
  /// that is no pod of the job (`<job>-<task>-<index>`, index below the task's replicas) throws
  /// std::invalid_argument listing the job's pods: at submit() for scripts set before it.
  void scriptPod(std::string podName, std::vector<PodScript> incarnations);
  void scriptDefault(PodScript script);  // default: runsForever()
  /// Deletes the pod; settles this instant. A pod that does not exist now throws
  /// std::invalid_argument listing the pods that do.
  void evict(std::string_view podName);
  /// Writes `objects` into the job's namespace, or deletes one object there, as a user or another
  /// controller would behind the plugins' back (e.g. edits a plugin's ConfigMap). No sync follows
  /// until the job's next event.
  void writeObjects(const Components& objects);
  void deleteObject(ObjectKind kind, std::string_view name);
  /// Issues a bus command (AbortJob, ResumeJob, RestartJob, RestartTask, RestartPod, ...) and
  /// settles this instant. An action not in jobhost::actions, a task not of the job or a pod name
  /// not of the job throws std::invalid_argument listing the valid ones.
  void command(std::string_view action, std::string_view task = {}, std::string_view pod = {});
  void advance(int64_t ms);                 // fires timers, settling after each instant
  bool runUntilFinished(int64_t limitMs);   // true when the job reached a finished phase
  int64_t now() const;

  // --- the job and what the host did ---
  Job job() const;  // the controller's copy; throws std::logic_error before submit()
  JobPhase phase() const;
  int32_t retryCount() const;
  /// Every call into a plugin, in order: "<plugin>.<Call>" plus " <pod>" for OnPodCreate, e.g.
  /// "svc.IdentifyPodNetwork", "env.OnJobAdd", "env.OnPodCreate demo-worker-0".
  std::vector<std::string> hookCalls() const;
  void clearHookCalls();
  /// Errors of handled requests (sync failures, e.g. a hook error naming its plugin), in order.
  std::vector<std::string> syncErrors() const;
  /// Makes the host-side proxy of `plugin` throw std::runtime_error(`what`) instead of calling
  /// `call` ("OnJobAdd", "Build", ...) until cleared with an empty `call`. A call the plugin does
  /// not have throws std::invalid_argument listing its calls; an unknown plugin, std::out_of_range.
  void injectThrow(std::string_view plugin, std::string call, std::string what = "injected");

  struct State;  // implementation (sdk/testing)
  State& state() { return *state_; }

 private:
  std::unique_ptr<State> state_;
};

}  // namespace jobhost::testing
