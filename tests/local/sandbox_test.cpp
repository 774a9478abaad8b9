// Unit tests of the pod sandbox: ConfigMap/Secret materialisation and file modes, subPath mounts,
// hostPath types, grace periods, the hosts file, loopback addresses, the mount plan and bwrap's line.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "host/cluster/local/bwrap.h"
#include "host/cluster/local/hosts_file.h"
#include "host/cluster/local/loopback.h"
#include "host/cluster/local/mount_plan.h"
#include "host/cluster/local/pod_run.h"
#include "host/cluster/local/sandbox.h"

namespace jobhost::local {
namespace {

namespace fs = std::filesystem;

class SandboxTest : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() / ("jobhost-sandbox-test-" + std::to_string(::getpid()));
    fs::remove_all(root_);
    layout_ = SandboxLayout{(root_ / "ns/job/pod").string(), (root_ / "ns/pvc").string()};
    cm_.metadata.name = "hosts";
    cm_.data = {{"worker.host", "w-0.job\nw-1.job"}, {"other", "x"}};
    secret_.metadata.name = "job-ssh";
    secret_.data = {{"id_rsa", "PRIVATE"}, {"config", "Host *"}};
    objects_.configMap = [this](const std::string& n) { return n == "hosts" ? std::optional(cm_) : std::nullopt; };
    objects_.secret = [this](const std::string& n) { return n == "job-ssh" ? std::optional(secret_) : std::nullopt; };
  }
  void TearDown() override { fs::remove_all(root_); }

  static int modeOf(const fs::path& p) {
    struct stat st{};
    EXPECT_EQ(::stat(p.c_str(), &st), 0) << p;
    return static_cast<int>(st.st_mode & 07777);
  }
  static std::string read(const fs::path& p) {
    std::ifstream in(p);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }

  fs::path root_;
  SandboxLayout layout_;
  ConfigMap cm_;
  Secret secret_;
  ObjectLookup objects_;
};

Pod podWithVolumes() {
  Pod pod;
  pod.metadata.name = "job-w-0";
  pod.spec.hostname = "job-w-0";
  Volume cm;
  cm.name = "hosts";
  cm.configMap = ConfigMapVolumeSource{"hosts", {}, std::nullopt, std::nullopt};
  Volume secret;
  secret.name = "ssh";
  secret.secret = SecretVolumeSource{"job-ssh", {{"id_rsa", ".ssh/id_rsa", std::nullopt}, {"config", ".ssh/config", 0644}},
                                     std::nullopt, std::nullopt};
  Volume scratch;
  scratch.name = "scratch";
  scratch.emptyDir = EmptyDirVolumeSource{};
  pod.spec.volumes = {cm, secret, scratch};
  Container c;
  c.name = "main";
  c.volumeMounts = {{"hosts", "/etc/volcano", "", false, {}}, {"ssh", "/root/.ssh", ".ssh", false, {}},
                    {"scratch", "/scratch", "", false, {}}};
  pod.spec.containers.push_back(c);
  return pod;
}

TEST_F(SandboxTest, MaterialisesConfigMapsAndSecretsWithTheirModes) {
  const Pod pod = podWithVolumes();
  ASSERT_TRUE(prepareSandbox(layout_, pod, objects_, true)) << "prepare";
  EXPECT_EQ(read(layout_.volumeDir("hosts") + "/worker.host"), "w-0.job\nw-1.job");
  EXPECT_EQ(modeOf(layout_.volumeDir("hosts") + "/worker.host"), 0644);
  EXPECT_EQ(read(layout_.volumeDir("ssh") + "/.ssh/id_rsa"), "PRIVATE");
  EXPECT_EQ(modeOf(layout_.volumeDir("ssh") + "/.ssh/id_rsa"), 0600);  // Secret default
  EXPECT_EQ(modeOf(layout_.volumeDir("ssh") + "/.ssh/config"), 0644);  // the item's mode
  EXPECT_EQ(modeOf(layout_.volumeDir("ssh") + "/.ssh"), 0700);
  EXPECT_EQ(read(layout_.hostnameFile()), "job-w-0\n");
  EXPECT_TRUE(fs::is_directory(layout_.volumeDir("scratch")));
  EXPECT_TRUE(fs::is_directory(layout_.logsDir()));
}

TEST_F(SandboxTest, SecretDefaultModeIsHonoured) {
  Pod pod = podWithVolumes();
  pod.spec.volumes[1].secret->items.clear();
  pod.spec.volumes[1].secret->defaultMode = 0440;
  ASSERT_TRUE(prepareSandbox(layout_, pod, objects_, true));
  EXPECT_EQ(modeOf(layout_.volumeDir("ssh") + "/id_rsa"), 0440);
}

TEST_F(SandboxTest, AMissingConfigMapFailsUnlessOptional) {
  Pod pod = podWithVolumes();
  pod.spec.volumes[0].configMap->name = "absent";
  Status st = prepareSandbox(layout_, pod, objects_, true);
  ASSERT_FALSE(st);
  EXPECT_NE(st.message().find("configmap \"absent\" not found"), std::string::npos) << st.message();
  pod.spec.volumes[0].configMap->optional = true;
  EXPECT_TRUE(prepareSandbox(layout_, pod, objects_, true));
}

TEST_F(SandboxTest, RefreshRewritesFilesInPlace) {
  const Pod pod = podWithVolumes();
  ASSERT_TRUE(prepareSandbox(layout_, pod, objects_, true));
  cm_.data["worker.host"] = "w-0.job";
  ASSERT_TRUE(refreshVolumes(layout_, pod, "ConfigMap", "hosts", objects_));
  EXPECT_EQ(read(layout_.volumeDir("hosts") + "/worker.host"), "w-0.job");
}

TEST_F(SandboxTest, MountsApplySubPathAndReadOnly) {
  const Pod pod = podWithVolumes();
  ASSERT_TRUE(prepareSandbox(layout_, pod, objects_, true));
  auto mounts = containerMounts(layout_, pod, pod.spec.containers[0]);
  ASSERT_TRUE(mounts) << mounts.error();
  ASSERT_EQ(mounts->size(), 3u);
  EXPECT_EQ((*mounts)[0], (Mount{layout_.volumeDir("hosts"), "/etc/volcano", true}));
  EXPECT_EQ((*mounts)[1], (Mount{layout_.volumeDir("ssh") + "/.ssh", "/root/.ssh", true}));
  EXPECT_EQ((*mounts)[2], (Mount{layout_.volumeDir("scratch"), "/scratch", false}));
}

// hostPath types as the kubelet checks them: ...OrCreate makes what is missing, the others must
// already be of their kind, and a wrong kind keeps the pod in FailedMount with the kubelet's text.
TEST_F(SandboxTest, HostPathTypesAreCheckedAndOrCreateMakesThePath) {
  const auto podWith = [](const std::string& path, const std::string& type) {
    Pod pod;
    Volume v;
    v.name = "data";
    v.unknown = {{"hostPath", "{\"path\":\"" + path + "\",\"type\":\"" + type + "\"}"}};
    pod.spec.volumes = {v};
    return pod;
  };
  const fs::path dir = root_ / "host" / "a" / "b", file = root_ / "host" / "file.txt";
  ASSERT_TRUE(prepareSandbox(layout_, podWith(dir.string(), "DirectoryOrCreate"), objects_, false));
  EXPECT_TRUE(fs::is_directory(dir));
  EXPECT_EQ(modeOf(dir), 0755);
  ASSERT_TRUE(prepareSandbox(layout_, podWith(file.string(), "FileOrCreate"), objects_, false));
  EXPECT_TRUE(fs::is_regular_file(file));
  EXPECT_EQ(read(file), "");
  EXPECT_TRUE(prepareSandbox(layout_, podWith(dir.string(), "Directory"), objects_, false));
  EXPECT_TRUE(prepareSandbox(layout_, podWith(file.string(), "File"), objects_, false));

  EXPECT_EQ(prepareSandbox(layout_, podWith(file.string(), "Directory"), objects_, false).message(),
            "volume \"data\": hostPath type check failed: " + file.string() + " is not a directory");
  EXPECT_EQ(prepareSandbox(layout_, podWith(dir.string(), "FileOrCreate"), objects_, false).message(),
            "volume \"data\": hostPath type check failed: " + dir.string() + " is not a file");
  EXPECT_EQ(prepareSandbox(layout_, podWith((root_ / "none").string(), "Socket"), objects_, false).message(),
            "volume \"data\": hostPath type check failed: " + (root_ / "none").string() + " is not a socket file");
  EXPECT_EQ(prepareSandbox(layout_, podWith(dir.string(), "Dir"), objects_, false).message(),
            "volume \"data\": hostPath type \"Dir\" is not one of DirectoryOrCreate, Directory, FileOrCreate, File, "
            "Socket, CharDevice, BlockDevice");
  EXPECT_TRUE(prepareSandbox(layout_, podWith((root_ / "none").string(), ""), objects_, false));  // no check
  EXPECT_FALSE(fs::exists(root_ / "none"));
}

// A pod's terminationGracePeriodSeconds replaces the backend's gracePeriodSeconds when it is valid.
TEST(GracePeriod, ThePodsOwnGracePeriodWins) {
  PodSpec spec;
  EXPECT_EQ(gracePeriodSeconds(spec, 5), 5);
  spec.unknown = {{"terminationGracePeriodSeconds", "12"}};
  EXPECT_EQ(gracePeriodSeconds(spec, 5), 12);
  spec.unknown = {{"terminationGracePeriodSeconds", "0"}};
  EXPECT_EQ(gracePeriodSeconds(spec, 5), 0);
  for (const char* bad : {"-1", "\"12\"", "1.5", "null"}) {
    spec.unknown = {{"terminationGracePeriodSeconds", bad}};
    EXPECT_EQ(gracePeriodSeconds(spec, 5), 5) << bad;
  }
}

TEST_F(SandboxTest, HostsFileGrowsByAppending) {
  fs::create_directories(root_);
  auto hosts = HostsFile::create((root_ / "hosts").string());
  ASSERT_TRUE(hosts) << hosts.error();
  struct stat before{};
  ::stat(hosts->path().c_str(), &before);
  Pod pod;
  pod.metadata.name = "job-w-0";
  pod.metadata.namespace_ = "ns";
  pod.spec.subdomain = "job";
  ASSERT_TRUE(hosts->add("127.3.0.1", podHostNames(pod)));
  ASSERT_TRUE(hosts->add("127.3.0.1", podHostNames(pod)));  // no duplicate
  Service svc;
  svc.metadata.name = "job";
  svc.metadata.namespace_ = "ns";
  svc.spec.selector = {{"app", "x"}};
  EXPECT_FALSE(selects(svc, pod));
  pod.metadata.labels["app"] = "x";
  EXPECT_TRUE(selects(svc, pod));
  ASSERT_TRUE(hosts->add("127.3.0.1", serviceHostNames(svc)));
  const std::string text = read(hosts->path());
  EXPECT_NE(text.find("127.0.0.1\tlocalhost\n"), std::string::npos);
  EXPECT_NE(text.find("127.3.0.1\tjob-w-0\tjob-w-0.job\tjob-w-0.job.ns.svc\tjob-w-0.job.ns.svc.cluster.local\n"),
            std::string::npos);
  EXPECT_NE(text.find("127.3.0.1\tjob\tjob.ns\tjob.ns.svc\tjob.ns.svc.cluster.local\n"), std::string::npos);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 5);
  struct stat after{};
  ::stat(hosts->path().c_str(), &after);
  EXPECT_EQ(before.st_ino, after.st_ino);  // bind mounts keep seeing it
}

TEST(Loopback, AddressesAreStablePerJobHostAndNeverLocalhost) {
  LoopbackAllocator a(7);
  EXPECT_EQ(a.assign("ns/j", "j-w-0"), "127.7.0.1");
  EXPECT_EQ(a.assign("ns/j", "j-w-1"), "127.7.0.2");
  EXPECT_EQ(a.assign("ns/j", "j-w-0"), "127.7.0.1");  // restarted pod keeps its address
  EXPECT_EQ(a.assign("ns/k", "j-w-0"), "127.7.0.3");  // another job, another address
  for (int i = 0; i < 300; ++i) a.assign("ns/big", "h" + std::to_string(i));
  EXPECT_EQ(a.jobAddresses("ns/big").at("h250"), "127.7.0.254");
  EXPECT_EQ(a.jobAddresses("ns/big").at("h251"), "127.7.1.1");  // .255 and .0 are skipped
  EXPECT_EQ(a.jobAddresses("ns/j").size(), 2u);
}

TEST(Loopback, ConcurrentAllocatorsTakeDifferentBlocks) {
  const std::string dir = (fs::temp_directory_path() / ("jobhost-loopback-test-" + std::to_string(::getpid()))).string();
  fs::create_directories(dir);
  auto first = LoopbackAllocator::open(dir);
  auto second = LoopbackAllocator::open(dir);
  ASSERT_TRUE(first && second);
  EXPECT_NE(first->block(), second->block());
  fs::remove_all(dir);
}

TEST(Isolation, MissingMountPointsAreShadowedNotCreated) {
  const std::string missing = "/etc/jobhost-test-missing-" + std::to_string(::getpid());
  ContainerSandbox sb{"h", "/tmp/hosts", "/tmp/hostname", {{"/tmp/src", missing + "/sub", true}}, "/work"};
  const auto args = bwrapArgs(sb);
  auto has = [&](std::vector<std::string> seq) { return std::search(args.begin(), args.end(), seq.begin(), seq.end()) != args.end(); };
  EXPECT_TRUE(has({"--unshare-pid", "--unshare-uts", "--hostname", "h"}));
  EXPECT_TRUE(has({"--dev-bind", "/", "/", "--proc", "/proc"}));
  EXPECT_TRUE(has({"--tmpfs", "/etc"}));
  EXPECT_TRUE(has({"--dev-bind", "/etc/passwd", "/etc/passwd"}));
  EXPECT_TRUE(has({"--ro-bind", "/tmp/hosts", "/etc/hosts"}));
  EXPECT_TRUE(has({"--ro-bind", "/tmp/src", missing + "/sub"}));
  EXPECT_TRUE(has({"--chdir", "/work"}));
  EXPECT_EQ(args.back(), "--");
  EXPECT_FALSE(fs::exists(missing));
}

TEST(MountPlan, MissingTargetsGetTheirDeepestExistingAncestorShadowed) {
  const std::string etc = "/etc/jobhost-test-missing-" + std::to_string(::getpid());
  const std::string top = "/jobhost-test-missing-" + std::to_string(::getpid());
  ContainerSandbox sb{"h", "/tmp/hosts", "", {{"/tmp/a", top + "/x", false}, {"/tmp/b", etc, true}, {"/tmp", "/tmp", false}}, ""};
  const auto steps = planMounts(sb);
  auto find = [&](MountStep::Kind kind, const std::string& target) {
    for (const auto& s : steps)
      if (s.kind == kind && s.target == target) return &s;
    return static_cast<const MountStep*>(nullptr);
  };
  ASSERT_FALSE(steps.empty());
  EXPECT_EQ(steps[0].kind, MountStep::Kind::Shadow);  // parents first
  EXPECT_EQ(steps[0].target, "/");
  EXPECT_EQ(steps[0].mode, 0755u);
  const MountStep* etcShadow = find(MountStep::Kind::Shadow, "/etc");
  ASSERT_NE(etcShadow, nullptr);
  struct stat st{};
  ASSERT_EQ(::stat("/etc", &st), 0);
  EXPECT_EQ(etcShadow->mode, st.st_mode & 07777);
  EXPECT_EQ(find(MountStep::Kind::Entry, "/etc"), nullptr);  // a shadow rebuilds itself
  ASSERT_NE(find(MountStep::Kind::Entry, "/etc/passwd"), nullptr);
  EXPECT_FALSE(find(MountStep::Kind::Entry, "/etc/passwd")->directory);
  ASSERT_NE(find(MountStep::Kind::Entry, "/usr"), nullptr);
  EXPECT_TRUE(find(MountStep::Kind::Entry, "/usr")->directory);
  // Binds last: hosts, then volumes by depth; mount points created only where missing.
  std::vector<std::pair<std::string, bool>> binds;
  for (const auto& s : steps)
    if (s.kind == MountStep::Kind::Bind) binds.emplace_back(s.target, s.createTarget);
  EXPECT_EQ(binds, (std::vector<std::pair<std::string, bool>>{
                       {"/etc/hosts", false}, {"/tmp", false}, {top + "/x", true}, {etc, true}}));
  EXPECT_EQ(steps.back().kind, MountStep::Kind::Bind);
  EXPECT_TRUE(find(MountStep::Kind::Bind, etc)->readOnly);
  EXPECT_TRUE(find(MountStep::Kind::Bind, "/tmp")->directory);
}

}  // namespace
}  // namespace jobhost::local
