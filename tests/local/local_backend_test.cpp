// LocalBackend with real processes under each isolation mode: phases and exit codes, init
// containers, restarts in place, TERM then KILL on deletion, pods started or deleted together (their
// starts overlap), gang admission and queueing, scheduleTimeoutSeconds (reported by an event),
// readiness probes, pods deleted only once their PID namespace is empty, logs fed through a pipe.
// Waits on events and process states, never on time.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <sstream>
#include <thread>

#include "host/cluster/local/local_backend.h"
#include "host/cluster/local/process.h"
#include "tests/local/backend_events.h"

namespace jobhost {
namespace {

namespace fs = std::filesystem;
using namespace testing_local;

class LocalBackendTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    std::string test = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    for (char& c : test)
      if (c == '/') c = '_';
    dir_ = fs::temp_directory_path() / ("jobhost-local-test-" + std::to_string(::getpid()) + "-" + test);
    fs::remove_all(dir_);
    config_.workDir = dir_;
    config_.isolation = GetParam();
    config_.gracePeriodSeconds = 1;
    config_.cpu = Quantity::fromMilli(2000);
  }
  void start() {
    auto b = LocalBackend::create(config_, LocalBackend::Tuning{50, 200});
    ASSERT_TRUE(b) << b.error();
    backend_ = std::move(*b);
    backend_->setListener(&recorder_);
    ASSERT_EQ(local::toString(backend_->isolation()), GetParam());
  }
  void TearDown() override {
    backend_.reset();
    fs::remove_all(dir_);
  }
  void create(const Pod& pod) {
    PodState created;
    ClusterStatus st = backend_->createPod(pod, &created);
    ASSERT_TRUE(st.ok()) << st.message;
    EXPECT_EQ(created.status.phase, PodPhase::Pending);
    EXPECT_FALSE(created.uid().empty());
  }
  std::string podDir(const std::string& pod) { return backend_->jobDir("test", "tjob") + "/" + pod; }

  std::string dir_;
  LocalBackendConfig config_;
  Recorder recorder_;
  std::unique_ptr<LocalBackend> backend_;
};

TEST_P(LocalBackendTest, PhasesComeFromTheProcessesAndTheFirstContainersExitCode) {
  start();
  create(makePod("ok", {shell("main", "echo hello")}));
  // Statuses are listed in name order, as the kubelet does: "a-sidecar" is containerStatuses[0].
  create(makePod("bad", {shell("worker", "true"), shell("a-sidecar", "exit 3")}));
  ASSERT_TRUE(recorder_.waitFor([](auto& ev) {
    return podIs(ev, "ok", PodPhase::Succeeded) && podIs(ev, "bad", PodPhase::Failed);
  }));
  const auto events = recorder_.events();
  EXPECT_EQ(events.front().type, ClusterEvent::Type::PodAdded);
  bool sawRunning = false;
  for (const auto& e : events)
    if (e.type == ClusterEvent::Type::PodUpdated && e.pod.name() == "ok" && e.pod.status.phase == PodPhase::Running)
      sawRunning = e.oldPodPhase == PodPhase::Pending;
  EXPECT_TRUE(sawRunning);
  const PodState bad = *lastState(events, "bad");
  ASSERT_EQ(bad.status.containerStatuses.size(), 2u);
  EXPECT_EQ(bad.status.containerStatuses[0].name, "a-sidecar");
  EXPECT_EQ(bad.status.containerStatuses[1].name, "worker");
  ASSERT_TRUE(bad.status.containerStatuses[0].terminated);
  EXPECT_EQ(bad.status.containerStatuses[0].terminated->exitCode, 3);
  ASSERT_TRUE(bad.status.containerStatuses[1].terminated);
  EXPECT_EQ(bad.status.containerStatuses[1].terminated->exitCode, 0);
  EXPECT_FALSE(bad.status.podIP.empty());
  EXPECT_EQ(readFile(podDir("ok") + "/logs/main.log"), "hello\n");
  EXPECT_EQ(backend_->createPod(makePod("ok", {shell("main", "true")}), nullptr).code, ClusterErrc::AlreadyExists);
}

TEST_P(LocalBackendTest, InitContainersRunFirstInOrderAndMustSucceed) {
  start();
  Pod pod = makePod("init", {shell("main", "echo main >> \"$JOBHOST_SANDBOX/order\"")});
  pod.spec.initContainers = {shell("one", "echo one >> \"$JOBHOST_SANDBOX/order\""),
                             shell("two", "echo two >> \"$JOBHOST_SANDBOX/order\"")};
  create(pod);
  Pod failing = makePod("init-fails", {shell("main", "echo never >> \"$JOBHOST_SANDBOX/order\"")});
  failing.spec.initContainers = {shell("setup", "exit 5")};
  create(failing);
  ASSERT_TRUE(recorder_.waitFor([](auto& ev) {
    return podIs(ev, "init", PodPhase::Succeeded) && podIs(ev, "init-fails", PodPhase::Failed);
  }));
  EXPECT_EQ(readFile(podDir("init") + "/order"), "one\ntwo\nmain\n");
  EXPECT_FALSE(fs::exists(podDir("init-fails") + "/order"));
  const PodState f = *lastState(recorder_.events(), "init-fails");
  EXPECT_EQ(f.status.initContainerStatuses[0].terminated->exitCode, 5);
}

// A program that is not installed is a StartError (exit 128, quoted) under every isolation; bwrap
// alone would report it as its own exit 1.
TEST_P(LocalBackendTest, AMissingProgramIsAStartError) {
  start();
  Container bare;
  bare.name = "main";
  bare.command = {"jobhost-no-such-command", "x"};
  create(makePod("bare", {bare}));
  Container absolute = bare;
  absolute.command = {"/opt/jobhost-nowhere/train"};
  create(makePod("absolute", {absolute}));
  ASSERT_TRUE(recorder_.waitFor([](auto& ev) {
    return podIs(ev, "bare", PodPhase::Failed) && podIs(ev, "absolute", PodPhase::Failed);
  }));
  const auto events = recorder_.events();
  EXPECT_EQ(*lastState(events, "bare")->status.containerStatuses[0].terminated,
            (ContainerStateTerminated{128, 0, "StartError", "executable \"jobhost-no-such-command\" not found in PATH"}));
  EXPECT_EQ(*lastState(events, "absolute")->status.containerStatuses[0].terminated,
            (ContainerStateTerminated{128, 0, "StartError",
                                      "cannot start \"/opt/jobhost-nowhere/train\": No such file or directory"}));
}

TEST_P(LocalBackendTest, OnFailureRestartsInPlaceAndCountsRestarts) {
  start();
  create(makePod("flaky", {shell("main", "n=$(cat \"$JOBHOST_SANDBOX/n\" 2>/dev/null || echo 0); "
                                         "echo $((n + 1)) > \"$JOBHOST_SANDBOX/n\"; [ \"$n\" -ge 2 ]")},
                 "OnFailure"));
  ASSERT_TRUE(recorder_.waitFor([](auto& ev) { return podIs(ev, "flaky", PodPhase::Succeeded); }));
  const PodState s = *lastState(recorder_.events(), "flaky");
  EXPECT_EQ(s.status.containerStatuses[0].restartCount, 2);
  ASSERT_TRUE(s.status.containerStatuses[0].lastTerminated);
  EXPECT_EQ(s.status.containerStatuses[0].lastTerminated->exitCode, 1);
  for (const auto& e : recorder_.events())  // it never looked finished before it was
    if (e.pod.object && e.pod.name() == "flaky" && e.pod.status.phase == PodPhase::Failed) ADD_FAILURE();
}

// Ready (an exec readinessProbe, run inside the container's namespaces when isolated) once the
// script has set its trap.
Container readyWhenUp(const std::string& script) {
  Container c = shell("main", script);
  c.unknown = {{"readinessProbe", R"({"exec":{"command":["sh","-c","test -e \"$JOBHOST_SANDBOX/up\""]},"periodSeconds":1})"}};
  return c;
}

TEST_P(LocalBackendTest, DeletionSendsTermThenKillAfterTheGracePeriod) {
  start();
  create(makePod("polite", {readyWhenUp("touch \"$JOBHOST_SANDBOX/up\"; exec sleep 1000")}));
  create(makePod("stubborn", {readyWhenUp("trap '' TERM; touch \"$JOBHOST_SANDBOX/up\"; while :; do sleep 0.1; done")}));
  ASSERT_TRUE(recorder_.waitFor([](auto& ev) { return ready(ev, "polite") && ready(ev, "stubborn"); }));
  const auto pids = backend_->processIds();
  EXPECT_EQ(pids.size(), 2u);
  ASSERT_TRUE(backend_->deletePod("test", "polite").ok());
  ASSERT_TRUE(backend_->deletePod("test", "stubborn").ok());
  EXPECT_EQ(backend_->deletePod("test", "absent").code, ClusterErrc::NotFound);
  ASSERT_TRUE(recorder_.waitFor([](auto& ev) { return deleted(ev, "polite") && deleted(ev, "stubborn"); }));
  const auto events = recorder_.events();
  EXPECT_EQ(lastState(events, "polite")->status.containerStatuses[0].terminated->exitCode, 143);
  EXPECT_EQ(lastState(events, "stubborn")->status.containerStatuses[0].terminated->exitCode, 137);
  EXPECT_TRUE(lastState(events, "stubborn")->deletionTimestamp.has_value());
  for (pid_t pid : pids) EXPECT_NE(::kill(pid, 0), 0) << pid;
  EXPECT_TRUE(backend_->processIds().empty());
}

// activeDeadlineSeconds, as the kubelet: the pod turns Failed (DeadlineExceeded) while its
// container still runs, then the container is stopped (TERM) and, although the policy is
// OnFailure, not restarted; the pod is kept.
TEST_P(LocalBackendTest, APodPastItsActiveDeadlineFailsAndStops) {
  start();
  Pod pod = makePod("late", {readyWhenUp("touch \"$JOBHOST_SANDBOX/up\"; exec sleep 1000")}, "OnFailure");
  pod.spec.unknown.emplace_back("activeDeadlineSeconds", "1");
  create(pod);
  ASSERT_TRUE(recorder_.waitFor([](auto& ev) {
    const auto s = lastState(ev, "late");
    return s && s->status.phase == PodPhase::Failed && s->status.containerStatuses[0].terminated;
  }));
  const auto events = recorder_.events();
  const PodState s = *lastState(events, "late");
  EXPECT_EQ(s.status.reason, "DeadlineExceeded");
  EXPECT_EQ(s.status.message, "Pod was active on the node longer than the specified deadline");
  EXPECT_EQ(s.status.containerStatuses[0].terminated->exitCode, 143);
  EXPECT_EQ(s.status.containerStatuses[0].restartCount, 0);
  EXPECT_FALSE(s.deletionTimestamp.has_value());
  EXPECT_FALSE(deleted(events, "late"));
  EXPECT_TRUE(backend_->processIds().empty());
  // The first Failed status came while the container still ran, as the kubelet reports it.
  for (const auto& e : events)
    if (e.pod.object && e.pod.name() == "late" && e.pod.status.phase == PodPhase::Failed) {
      EXPECT_TRUE(e.pod.status.containerStatuses[0].running);
      break;
    }
}

// Output reaches the log through a pipe, as under the kubelet: reopening /dev/stdout or /dev/stderr
// appends instead of truncating the log, and an exit is reported once all of it (here more than a
// pipe holds) is in the log.
TEST_P(LocalBackendTest, TheLogKeepsAllOutputHoweverTheContainerWritesIt) {
  start();
  create(makePod("chatty", {shell("main", "echo one; echo two > /dev/stderr; echo three > /dev/stdout; echo four >&2; "
                                          "head -c 300000 /dev/zero | tr '\\0' x; echo; echo five")}));
  ASSERT_TRUE(recorder_.waitFor([](auto& ev) { return podIs(ev, "chatty", PodPhase::Succeeded); }));
  EXPECT_EQ(readFile(podDir("chatty") + "/logs/main.log"), "one\ntwo\nthree\nfour\n" + std::string(300000, 'x') + "\nfive\n");
}

// Pods created together start on several threads at once: each keeps its own exit code and log.
TEST_P(LocalBackendTest, PodsStartedTogetherKeepTheirOwnExitCodesAndLogs) {
  start();
  constexpr int kPods = 24;
  auto name = [](int i) { return "many-" + std::to_string(i); };
  for (int i = 0; i < kPods; ++i) create(makePod(name(i), {shell("main", "echo \"$HOSTNAME\"; exit " + std::to_string(i % 5))}));
  ASSERT_TRUE(recorder_.waitFor([&](auto& ev) {
    for (int i = 0; i < kPods; ++i)
      if (!podIs(ev, name(i), i % 5 == 0 ? PodPhase::Succeeded : PodPhase::Failed)) return false;
    return true;
  }));
  const auto events = recorder_.events();
  for (int i = 0; i < kPods; ++i) {
    const auto terminated = lastState(events, name(i))->status.containerStatuses[0].terminated;
    ASSERT_TRUE(terminated) << name(i);
    EXPECT_EQ(terminated->exitCode, i % 5) << name(i);
    EXPECT_EQ(readFile(podDir(name(i)) + "/logs/main.log"), name(i) + "\n");
  }
}

// Pods deleted at once after their creation, while their containers may still be starting: once
// every deletion is reported, no process of theirs is left (isolated: not even a setsid'd one).
TEST_P(LocalBackendTest, PodsDeletedWhileStartingLeaveNoProcess) {
  start();
  constexpr int kPods = 16;
  auto name = [](int i) { return "doomed-" + std::to_string(i); };
  const std::string script = GetParam() == "none" ? "exec sleep 1000" : "setsid sleep 1000 & exec sleep 1000";
  for (int i = 0; i < kPods; ++i) create(makePod(name(i), {shell("main", script)}));
  for (int i = 0; i < kPods; ++i) ASSERT_TRUE(backend_->deletePod("test", name(i)).ok());
  ASSERT_TRUE(recorder_.waitFor([&](auto& ev) {
    for (int i = 0; i < kPods; ++i)
      if (!deleted(ev, name(i))) return false;
    return true;
  }));
  for (int i = 0; i < kPods; ++i) EXPECT_EQ(processesOf(podDir(name(i))), std::vector<pid_t>{}) << name(i);
  EXPECT_TRUE(backend_->processIds().empty());
}

TEST_P(LocalBackendTest, GangsAreAdmittedAgainstCapacityAndQueue) {
  start();
  auto group = [](const std::string& name, int64_t cpuMilli) {
    PodGroup pg;
    pg.metadata.name = name;
    pg.metadata.namespace_ = "test";
    pg.spec.minMember = 2;
    pg.spec.minResources = ResourceList{{"cpu", Quantity::fromMilli(cpuMilli)}};
    return pg;
  };
  auto onePodOf = [](const std::string& name, const std::string& pg) {
    Container c = shell("main", "sleep 0.3");
    c.resources.requests["cpu"] = Quantity::fromMilli(1000);
    return makePod(name, {c}, "Never", pg);
  };
  auto phaseOf = [](const std::vector<ClusterEvent>& ev, const std::string& pg) {
    std::string phase;
    for (const auto& e : ev)
      if (e.type == ClusterEvent::Type::PodGroupUpdated && e.podGroup->metadata.name == pg) phase = e.podGroup->status.phase;
    return phase;
  };
  ASSERT_TRUE(backend_->createPodGroup(group("a", 2000)).ok());
  ASSERT_TRUE(backend_->createPodGroup(group("b", 2000)).ok());
  ASSERT_TRUE(recorder_.waitFor([&](auto& ev) { return phaseOf(ev, "a") == "Inqueue"; }));
  EXPECT_EQ(*backend_->podGroupPhase("test", "b"), "Pending");
  create(onePodOf("a-0", "a"));
  backend_->flushEvents();
  EXPECT_FALSE(podIs(recorder_.events(), "a-0", PodPhase::Running));  // half a gang does not start
  create(onePodOf("a-1", "a"));
  ASSERT_TRUE(recorder_.waitFor([&](auto& ev) { return phaseOf(ev, "b") == "Inqueue"; }));
  const auto events = recorder_.events();
  EXPECT_TRUE(podIs(events, "a-0", PodPhase::Succeeded) && podIs(events, "a-1", PodPhase::Succeeded));
  EXPECT_EQ(phaseOf(events, "a"), "Running");
  const auto b = backend_->getPodGroup("test", "b");
  ASSERT_TRUE(b);
  EXPECT_EQ(b->status.conditions.back().type, "Unschedulable");  // what it waited for
}

TEST_P(LocalBackendTest, AGangNotPlacedInTimeIsReportedUnschedulable) {
  start();
  PodGroup pg;
  pg.metadata.name = "huge";
  pg.metadata.namespace_ = "test";
  pg.spec.minMember = 1;
  pg.spec.minResources = ResourceList{{"cpu", Quantity::fromMilli(64000)}};
  pg.spec.scheduleTimeoutSeconds = 1;
  ASSERT_TRUE(backend_->createPodGroup(pg).ok());
  auto timedOut = [](const ClusterEvent& e) {  // a condition-only change: the phase stays Pending
    return e.type == ClusterEvent::Type::PodGroupUpdated && e.podGroup->metadata.name == "huge" &&
           !e.podGroup->status.conditions.empty() && e.podGroup->status.conditions.back().reason == "ScheduleTimeout";
  };
  ASSERT_TRUE(recorder_.waitFor([&](auto& ev) { return std::any_of(ev.begin(), ev.end(), timedOut); }));
  for (const auto& e : recorder_.events())
    if (timedOut(e)) {
      EXPECT_EQ(e.oldPodGroupPhase, "Pending");
      EXPECT_EQ(e.podGroup->status.phase, "Pending");
    }
  const auto g = backend_->getPodGroup("test", "huge");
  EXPECT_EQ(g->status.phase, "Pending");
  EXPECT_EQ(g->status.conditions.back().type, "Unschedulable");
  EXPECT_EQ(g->status.conditions.back().status, "True");
}

INSTANTIATE_TEST_SUITE_P(Isolation, LocalBackendTest, ::testing::Values("native", "bwrap", "none"));

// The isolation modes with a PID namespace per container.
class PidNamespaceTest : public LocalBackendTest {
 protected:
  /// Waits until `done()` holds, checking every millisecond (for states of processes, which send no events).
  static bool eventually(const std::function<bool()>& done) {
    const auto deadline = std::chrono::steady_clock::now() + kPatience;
    while (!done()) {
      if (std::chrono::steady_clock::now() > deadline) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return true;
  }
  /// The state letter of `pid` in /proc/<pid>/stat (S, T, Z...), or '?' when it is gone.
  static char stateOf(pid_t pid) {
    const std::string stat = readFile("/proc/" + std::to_string(pid) + "/stat");
    const size_t close = stat.rfind(") ");
    return close == std::string::npos ? '?' : stat[close + 2];
  }
  static bool runs(pid_t pid, const std::string& command) {
    return readFile("/proc/" + std::to_string(pid) + "/comm") == command + "\n";
  }
};

// A container's exit, and so its pod's deletion, counts only once its PID namespace is empty. bwrap
// itself exits with the command, and what is left in the namespace dies with the namespace's init
// just after; here that init is held: a process that joined the namespace from outside (nsenter,
// stopped so that it cannot reap its child) keeps it alive after every process of the pod died.
TEST_P(PidNamespaceTest, APodIsDeletedOnlyOnceItsPidNamespaceIsEmpty) {
  start();
  create(makePod("held", {shell("main", "exec sleep 1000")}));
  pid_t command = -1;
  ASSERT_TRUE(eventually([&] {
    for (pid_t pid : processesOf(podDir("held")))
      if (runs(pid, "sleep")) command = pid;
    return command > 0;
  }));
  const std::string target = std::to_string(command);
  const pid_t nsenter = local::spawnSilently({"nsenter", "--target", target, "--pid", "--", "sleep", "1000"});
  ASSERT_GT(nsenter, 0);
  ASSERT_TRUE(eventually([&] {
    std::istringstream children(readFile("/proc/" + std::to_string(nsenter) + "/task/" + std::to_string(nsenter) + "/children"));
    pid_t child = -1;
    return children >> child && runs(child, "sleep");
  }));
  ASSERT_EQ(::kill(nsenter, SIGSTOP), 0);
  ASSERT_TRUE(eventually([&] { return stateOf(nsenter) == 'T'; }));

  ASSERT_TRUE(backend_->deletePod("test", "held").ok());
  // Only the held init is left: the pod's processes are gone, and bwrap is reaped (native: that
  // init is the container's process, and it cannot be reaped yet).
  const size_t left = GetParam() == "native" ? 1 : 0;
  ASSERT_TRUE(eventually([&] { return processesOf(podDir("held")).empty() && backend_->processIds().size() == left; }));
  backend_->flushEvents();
  EXPECT_FALSE(deleted(recorder_.events(), "held"));

  ASSERT_EQ(::kill(nsenter, SIGCONT), 0);  // it reaps its child, then exits
  ::waitpid(nsenter, nullptr, 0);
  ASSERT_TRUE(recorder_.waitFor([](auto& ev) { return deleted(ev, "held"); }));
  EXPECT_TRUE(backend_->processIds().empty());
}

INSTANTIATE_TEST_SUITE_P(Isolation, PidNamespaceTest, ::testing::Values("native", "bwrap"));

// Without isolation a container's processes can outlive it (an isolated one's die with its PID namespace).
class NoIsolationTest : public LocalBackendTest {};

// A process that outlives its container (only possible without isolation) and still holds the
// output does not hold up the container's exit.
TEST_P(NoIsolationTest, AnExitIsReportedWhileAnEscapedProcessHoldsTheOutput) {
  start();
  // $$$$: Kubernetes' command expansion turns $$ into $.
  create(makePod("escape", {shell("main", "setsid sh -c 'echo $$$$ > \"$JOBHOST_SANDBOX/escapee\"; exec sleep 60' & "
                                          "while [ ! -s \"$JOBHOST_SANDBOX/escapee\" ]; do sleep 0.01; done; echo done")}));
  ASSERT_TRUE(recorder_.waitFor([](auto& ev) { return podIs(ev, "escape", PodPhase::Succeeded); }));
  const pid_t escapee = std::stoi(readFile(podDir("escape") + "/escapee"));
  EXPECT_EQ(::kill(escapee, 0), 0);  // still alive: its end of the pipe is open
  ::kill(escapee, SIGKILL);
  EXPECT_EQ(readFile(podDir("escape") + "/logs/main.log"), "done\n");
}

// configMapVersion (what plugins' create-or-update memos compare): a new number on every write,
// never reused after a delete, 0 when absent, removed or collected with its owner.
TEST_P(NoIsolationTest, ConfigMapVersionChangesOnEveryWriteAndIsZeroWhenAbsent) {
  start();
  Components objects;
  ConfigMap& cm = objects.configMaps.emplace_back();
  cm.metadata.name = "hosts";
  cm.metadata.ownerReferences.push_back({"batch.volcano.sh/v1alpha1", "Job", "tjob", "uid-t", true, true});
  cm.data = {{"a", "1"}};
  EXPECT_EQ(backend_->configMapVersion("test", "hosts"), 0u);
  ASSERT_TRUE(backend_->applyObjects("test", objects).ok());
  const uint64_t first = backend_->configMapVersion("test", "hosts");
  EXPECT_NE(first, 0u);
  ASSERT_TRUE(backend_->applyObjects("test", objects).ok());
  const uint64_t second = backend_->configMapVersion("test", "hosts");
  EXPECT_GT(second, first);
  EXPECT_EQ(backend_->configMapVersion("other", "hosts"), 0u);
  ASSERT_TRUE(backend_->removeObject("test", ObjectKind::ConfigMap, "hosts").ok());
  EXPECT_EQ(backend_->configMapVersion("test", "hosts"), 0u);
  ASSERT_TRUE(backend_->applyObjects("test", objects).ok());
  EXPECT_GT(backend_->configMapVersion("test", "hosts"), second);
  backend_->deleteOwnedBy("test", "uid-t");
  EXPECT_EQ(backend_->configMapVersion("test", "hosts"), 0u);
}

INSTANTIATE_TEST_SUITE_P(Isolation, NoIsolationTest, ::testing::Values("none"));

}  // namespace
}  // namespace jobhost
