// Native isolation, observed from inside the containers: volumes at their mountPath (missing on the
// host, so shadowed — under /etc, /root and / itself) with their modes, the pod's hostname and
// /etc/hosts, PID 1 being the init, leftovers killed with the command, pods started together seeing
// only their own, TERM reaching the command, probes inside the namespaces, start errors, commands
// ending at once; plus the isolation setting.
// Waits on events only.
#include <gtest/gtest.h>
#include <poll.h>
#include <unistd.h>

#include <filesystem>

#include "host/cluster/local/isolation.h"
#include "host/cluster/local/local_backend.h"
#include "host/cluster/local/native_container.h"
#include "host/config/config.h"
#include "tests/local/backend_events.h"

namespace jobhost {
namespace {

namespace fs = std::filesystem;
using namespace testing_local;

// Paths missing on the host: a ConfigMap under /etc, an emptyDir under a missing top-level directory.
const std::string kEtcDir = "/etc/jobhost-native-test-" + std::to_string(::getpid());
const std::string kTopDir = "/jobhost-native-test-" + std::to_string(::getpid());

class NativeIsolationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("jobhost-native-test-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    LocalBackendConfig config;
    config.workDir = dir_;
    config.isolation = "native";
    config.gracePeriodSeconds = 1;
    auto b = LocalBackend::create(config, LocalBackend::Tuning{50, 200});
    ASSERT_TRUE(b) << b.error();
    backend_ = std::move(*b);
    ASSERT_EQ(backend_->isolation(), local::Isolation::Native);
    backend_->setListener(&recorder_);
    ConfigMap cm;
    cm.metadata.name = "hosts";
    cm.data = {{"worker.host", "w-0.tjob\nw-1.tjob"}};
    Secret secret;
    secret.metadata.name = "ssh";
    secret.data = {{"id_rsa", "PRIVATE"}};
    ASSERT_TRUE(backend_->applyObjects("test", Components{{cm}, {secret}, {}, {}}).ok());
  }
  void TearDown() override {
    backend_.reset();
    fs::remove_all(dir_);
  }

  // A pod with the ConfigMap at kEtcDir, the Secret's .ssh at /root/.ssh and an emptyDir at
  // kTopDir/deep/scratch; working directory kEtcDir.
  static Pod withVolumes(const std::string& name, Container c) {
    c.workingDir = kEtcDir;
    c.volumeMounts = {{"hosts", kEtcDir, "", false, {}},
                      {"ssh", "/root/.ssh", ".ssh", false, {}},
                      {"scratch", kTopDir + "/deep/scratch", "", false, {}}};
    Pod pod = makePod(name, {std::move(c)});
    Volume cm, secret, scratch;
    cm.name = "hosts";
    cm.configMap = ConfigMapVolumeSource{"hosts", {}, std::nullopt, std::nullopt};
    secret.name = "ssh";
    secret.secret = SecretVolumeSource{"ssh", {{"id_rsa", ".ssh/id_rsa", std::nullopt}}, std::nullopt, std::nullopt};
    scratch.name = "scratch";
    scratch.emptyDir = EmptyDirVolumeSource{};
    pod.spec.volumes = {cm, secret, scratch};
    return pod;
  }
  void create(const Pod& pod) {
    const ClusterStatus st = backend_->createPod(pod, nullptr);
    ASSERT_TRUE(st.ok()) << st.message;
  }
  std::string podDir(const std::string& pod) { return backend_->jobDir("test", "tjob") + "/" + pod; }
  PodState finalState(const std::string& pod) { return lastState(recorder_.events(), pod).value(); }
  std::vector<pid_t> processesOf(const std::string& pod) { return testing_local::processesOf(podDir(pod)); }

  std::string dir_;
  Recorder recorder_;
  std::unique_ptr<LocalBackend> backend_;
};

TEST_F(NativeIsolationTest, TheContainerSeesItsVolumesHostnameHostsAndPidNamespace) {
  const bool hostHadSsh = fs::exists("/root/.ssh");
  create(makePod("peer", {shell("main", "true")}));
  ASSERT_TRUE(recorder_.waitFor([](auto& ev) { return podIs(ev, "peer", PodPhase::Succeeded); }));
  create(withVolumes("nat-0", shell("main", R"(
uname -n
cat /etc/hostname
pwd
cat worker.host; echo
touch worker.host 2>/dev/null || echo read-only
stat -c '%a %n' worker.host /root/.ssh /root/.ssh/id_rsa
cat /root/.ssh/id_rsa; echo
getent hosts peer.tjob | awk '{print $1}'
echo $$$$
cat /proc/1/comm
echo scratch > )" + kTopDir + R"(/deep/scratch/file
setsid sleep 1000 &
)")));
  ASSERT_TRUE(recorder_.waitFor([](auto& ev) { return podIs(ev, "nat-0", PodPhase::Succeeded); }));
  const std::string peerIP = finalState("peer").status.podIP;
  ASSERT_FALSE(peerIP.empty());
  EXPECT_EQ(readFile(podDir("nat-0") + "/logs/main.log"), "nat-0\nnat-0\n" + kEtcDir + "\nw-0.tjob\nw-1.tjob\nread-only\n" +
                                                              "644 worker.host\n700 /root/.ssh\n600 /root/.ssh/id_rsa\n"
                                                              "PRIVATE\n" + peerIP + "\n2\njobhost-init\n");
  EXPECT_EQ(readFile(podDir("nat-0") + "/volumes/scratch/file"), "scratch\n");
  EXPECT_EQ(processesOf("nat-0"), std::vector<pid_t>{});  // the setsid'd sleep died with the container
  EXPECT_FALSE(fs::exists(kEtcDir));                          // nothing was created on the host
  EXPECT_FALSE(fs::exists(kTopDir));
  EXPECT_EQ(fs::exists("/root/.ssh"), hostHadSsh);
}

// Pods whose containers start at the same time, with an emptyDir at the same (shadowed) mountPath:
// each sees its own volume, hostname and address only.
TEST_F(NativeIsolationTest, PodsStartedTogetherSeeOnlyTheirOwnVolumesHostnameAndAddress) {
  constexpr int kPods = 12;
  auto name = [](int i) { return "own-" + std::to_string(i); };
  for (int i = 0; i < kPods; ++i) {
    Container c = shell("main", "cd " + kTopDir + "/scratch && touch \"$(uname -n)\" && ls && cat /etc/hostname && "
                                "getent hosts \"$(uname -n)\" | awk '{print $1}'");
    c.volumeMounts = {{"scratch", kTopDir + "/scratch", "", false, {}}};
    Pod pod = makePod(name(i), {c});
    Volume scratch;
    scratch.name = "scratch";
    scratch.emptyDir = EmptyDirVolumeSource{};
    pod.spec.volumes = {scratch};
    create(pod);
  }
  ASSERT_TRUE(recorder_.waitFor([&](auto& ev) {
    for (int i = 0; i < kPods; ++i)
      if (!podIs(ev, name(i), PodPhase::Succeeded)) return false;
    return true;
  }));
  for (int i = 0; i < kPods; ++i) {
    const std::string ip = finalState(name(i)).status.podIP;
    ASSERT_FALSE(ip.empty());
    EXPECT_EQ(readFile(podDir(name(i)) + "/logs/main.log"), name(i) + "\n" + name(i) + "\n" + ip + "\n");
    EXPECT_TRUE(fs::exists(podDir(name(i)) + "/volumes/scratch/" + name(i)));
  }
  EXPECT_FALSE(fs::exists(kTopDir));
}

TEST_F(NativeIsolationTest, TermReachesTheCommandAndTheProbeRunsInsideTheNamespaces) {
  Container c = shell("main", R"(setsid sleep 1000 &
trap 'echo TERM > "$JOBHOST_SANDBOX/term"; exit 7' TERM
touch "$JOBHOST_SANDBOX/up"
while :; do sleep 0.1; done)");
  // Ready only where the pod's hostname, volume and working directory are seen.
  c.unknown = {{"readinessProbe", R"({"exec":{"command":["sh","-c",
      "test -e \"$JOBHOST_SANDBOX/up\" && test \"$(uname -n)\" = probed && test \"$(pwd)\" = \")" + kEtcDir +
                                      R"(\" && test -f worker.host"]},"periodSeconds":1})"}};
  create(withVolumes("probed", c));
  ASSERT_TRUE(recorder_.waitFor([](auto& ev) { return ready(ev, "probed"); }));
  EXPECT_FALSE(processesOf("probed").empty());
  ASSERT_TRUE(backend_->deletePod("test", "probed").ok());
  ASSERT_TRUE(recorder_.waitFor([](auto& ev) { return deleted(ev, "probed"); }));
  const auto terminated = finalState("probed").status.containerStatuses[0].terminated;
  ASSERT_TRUE(terminated);
  EXPECT_EQ(terminated->exitCode, 7);  // the trap ran: not 143 (TERM) nor 137 (KILL after the grace period)
  EXPECT_EQ(readFile(podDir("probed") + "/term"), "TERM\n");
  EXPECT_EQ(processesOf("probed"), std::vector<pid_t>{});
}

TEST_F(NativeIsolationTest, ASignalledCommandReportsItsSignal) {
  create(makePod("killed", {shell("main", "kill -KILL $$$$")}));
  ASSERT_TRUE(recorder_.waitFor([](auto& ev) { return podIs(ev, "killed", PodPhase::Failed); }));
  const auto terminated = finalState("killed").status.containerStatuses[0].terminated;
  ASSERT_TRUE(terminated);
  EXPECT_EQ(terminated->exitCode, 137);
  EXPECT_EQ(terminated->signal, 9);
}

TEST_F(NativeIsolationTest, CommandsThatCannotStartAreStartErrors) {
  Container missing;
  missing.name = "main";
  missing.command = {"jobhost-no-such-command"};
  create(makePod("missing", {missing}));
  Container badDir = shell("main", "true");
  badDir.workingDir = kTopDir + "/absent";
  create(makePod("bad-dir", {badDir}));
  ASSERT_TRUE(recorder_.waitFor([](auto& ev) {
    return podIs(ev, "missing", PodPhase::Failed) && podIs(ev, "bad-dir", PodPhase::Failed);
  }));
  const auto notFound = finalState("missing").status.containerStatuses[0].terminated;
  ASSERT_TRUE(notFound);
  EXPECT_EQ(*notFound, (ContainerStateTerminated{128, 0, "StartError",
                                                 "executable \"jobhost-no-such-command\" not found in PATH"}));
  const auto noDir = finalState("bad-dir").status.containerStatuses[0].terminated;
  ASSERT_TRUE(noDir);
  EXPECT_EQ(*noDir, (ContainerStateTerminated{128, 0, "StartError",
                                              "container setup failed: change to the working directory " + kTopDir +
                                                  "/absent: No such file or directory"}));
  EXPECT_EQ(readFile(podDir("bad-dir") + "/logs/main.log"),
            "jobhost: container main cannot start: " + noDir->message + "\n");
}

// A command that ends before its init runs still reports (the init reaps before it waits for SIGCHLD).
TEST(NativeContainer, EveryQuicklyExitingCommandIsReaped) {
  local::SpawnRequest request;
  request.argv = {"true"};
  request.env = {{"PATH", ::getenv("PATH") ? ::getenv("PATH") : ""}};
  for (int i = 0; i < 50; ++i) {
    auto spawned = local::spawnNative(request, local::ContainerSandbox{"quick", "", "", {}, "/"});
    ASSERT_TRUE(spawned) << spawned.error();
    pollfd exited{spawned->pidfd, POLLIN, 0};
    ASSERT_EQ(::poll(&exited, 1, 10000), 1) << "container " << i << " did not end";
    const local::ExitInfo exit = local::reapNative(spawned->pid, spawned->statusFd);
    ::close(spawned->pidfd);
    ::close(spawned->statusFd);
    EXPECT_EQ(exit.exitCode, 0);
  }
}

TEST(IsolationSetting, ValuesAreValidatedAndResolved) {
  EXPECT_EQ(*local::resolveIsolation("native"), local::Isolation::Native);
  EXPECT_EQ(*local::resolveIsolation("auto"), local::Isolation::Native);  // root on Linux >= 5.9
  EXPECT_EQ(*local::resolveIsolation("none"), local::Isolation::None);
  const auto bogus = local::resolveIsolation("chroot");
  ASSERT_FALSE(bogus);
  EXPECT_EQ(bogus.error(), "isolation \"chroot\": must be \"auto\", \"native\", \"bwrap\" or \"none\"");
  auto config = parseHostConfig(R"({"backend": {"local": {"isolation": "native"}}})", "c.json");
  ASSERT_TRUE(config) << config.error();
  EXPECT_EQ(config->local.isolation, "native");
  config = parseHostConfig(R"({"backend": {"local": {"isolation": "chroot"}}})", "c.json");
  ASSERT_FALSE(config);
  EXPECT_NE(config.error().find("backend.local.isolation"), std::string::npos) << config.error();
  EXPECT_NE(config.error().find("must be \"auto\", \"native\", \"bwrap\" or \"none\""), std::string::npos)
      << config.error();
}

}  // namespace
}  // namespace jobhost
