// Local backend under faults: a container killed by a signal (exit code 128+N, job Failed), a
// work dir that cannot be created or written, a port already taken, and a job deleted while
// restarting (no process survives). Each job ends in a defined phase. Waits on events only.
#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <functional>
#include <mutex>

#include "host/cluster/local/local_backend.h"
#include "host/controller/controller.h"
#include "host/controller/no_plugin_job_plugins.h"
#include "host/controller/real_clock.h"

namespace jobhost {
namespace {

namespace fs = std::filesystem;
constexpr auto kPatience = std::chrono::seconds(90);

/// Records pod events, forwards them (to the controller, if any) and wakes waiters.
class Tee final : public ClusterListener {
 public:
  void onClusterEvents(std::span<ClusterEvent> events) override {
    {  // recorded before the controller sees them, so a phase it reaches implies the events here
      std::lock_guard lock(mutex_);
      for (const auto& e : events)
        if (e.pod.object) last_[e.pod.name()] = e;
    }
    changed_.notify_all();
    if (next) next->onClusterEvents(events);
  }
  void poke() { changed_.notify_all(); }
  bool waitFor(const std::function<bool()>& done) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, kPatience, done);
  }
  std::optional<ClusterEvent> last(const std::string& pod) {
    std::lock_guard lock(mutex_);
    auto it = last_.find(pod);
    return it == last_.end() ? std::nullopt : std::optional<ClusterEvent>(it->second);
  }
  PodPhase phaseOf(const std::string& pod) {
    auto e = last(pod);
    return e ? e->pod.status.phase : PodPhase::Unknown;
  }
  ClusterListener* next = nullptr;

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::map<std::string, ClusterEvent> last_;
};

Container shell(const std::string& name, const std::string& script) {
  Container c;
  c.name = name;
  c.command = {"sh", "-c", script};
  return c;
}

class FaultInjectionTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    std::string test = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    for (char& c : test)
      if (c == '/') c = '_';
    dir_ = fs::temp_directory_path() / ("jobhost-fault-test-" + std::to_string(::getpid()) + "-" + test);
    fs::remove_all(dir_);
    config_.workDir = dir_;
    config_.isolation = GetParam();
    config_.gracePeriodSeconds = 1;
    config_.cpu = Quantity::fromMilli(4000);
  }
  void start() {
    auto b = LocalBackend::create(config_, LocalBackend::Tuning{50, 200});
    ASSERT_TRUE(b) << b.error();
    backend_ = std::move(*b);
    backend_->setListener(&tee_);
  }
  void TearDown() override {
    controller_.reset();
    if (backend_) backend_->setListener(nullptr);
    backend_.reset();
    fs::remove_all(dir_);
  }
  /// A controller (real clock, no plugins) in front of the backend; job phases go to phases_,
  /// failed actions' messages to errors_.
  void startController(ControllerConfig config = {}) {
    controller_ = std::make_unique<Controller>(config, clock_, *backend_, plugins_);
    controller_->setObserver([this](const HandledRequest& r) {
      std::lock_guard lock(phaseMutex_);
      phases_.push_back(r.phase);
      if (!r.error.empty()) errors_.push_back(r.error);
      tee_.poke();
    });
    tee_.next = &controller_->listener();
    backend_->setListener(&tee_);  // in front of the controller, which made itself the listener
    controller_->start();
  }
  bool sawPhase(JobPhase phase) {
    std::lock_guard lock(phaseMutex_);
    return std::find(phases_.begin(), phases_.end(), phase) != phases_.end();
  }
  Job job(const std::string& name, std::vector<TaskSpec> tasks) {
    Job j;
    j.metadata.name = name;
    j.metadata.namespace_ = "test";
    j.spec.queue = "default";
    j.spec.schedulerName = "volcano";
    j.spec.maxRetry = 3;
    for (auto& t : tasks) {
      t.minAvailable = t.replicas;
      t.template_.spec.restartPolicy = "Never";
      j.spec.minAvailable += t.replicas;
    }
    j.spec.tasks = std::move(tasks);
    return j;
  }
  static TaskSpec task(const std::string& name, const std::string& script) {
    TaskSpec t;
    t.name = name;
    t.replicas = 1;
    t.template_.spec.containers = {shell("main", script)};
    return t;
  }

  std::string dir_;
  LocalBackendConfig config_;
  Tee tee_;
  std::unique_ptr<LocalBackend> backend_;
  RealClock clock_;
  NoPluginJobPlugins plugins_;
  std::unique_ptr<Controller> controller_;
  std::mutex phaseMutex_;
  std::vector<JobPhase> phases_;
  std::vector<std::string> errors_;
};

TEST_P(FaultInjectionTest, AContainerKilledByASignalExitsWith128PlusItAndTheJobFails) {
  start();
  startController();
  ASSERT_TRUE(controller_->submitJob(job("sig", {task("main", "kill -TERM $$$$")})).isOk());
  ASSERT_TRUE(tee_.waitFor([&] { return sawPhase(JobPhase::Failed); }));
  const auto e = tee_.last("sig-main-0");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->pod.status.phase, PodPhase::Failed);
  ASSERT_TRUE(e->pod.status.containerStatuses[0].terminated);
  EXPECT_EQ(e->pod.status.containerStatuses[0].terminated->exitCode, 128 + SIGTERM);
  EXPECT_EQ(controller_->getJob("test", "sig")->status.state.phase, JobPhase::Failed);
}

TEST_P(FaultInjectionTest, AWorkDirThatCannotBeCreatedIsAnErrorNamingIt) {
  fs::create_directories(dir_);
  std::ofstream(dir_ + "/file") << "not a directory";
  config_.workDir = dir_ + "/file/work";
  auto b = LocalBackend::create(config_);
  ASSERT_FALSE(b);
  EXPECT_NE(b.error().find("cannot create workDir " + dir_ + "/file/work"), std::string::npos) << b.error();
}

TEST_P(FaultInjectionTest, AJobDeletedWhileRestartingLeavesNoProcess) {
  start();
  startController();
  Job j = job("rs", {task("steady", "exec sleep 1000"), task("flaky", "sleep 0.2; exit 1")});
  j.spec.policies = {LifecyclePolicy{}};
  j.spec.policies[0].event = "PodFailed";
  j.spec.policies[0].action = "RestartJob";
  ASSERT_TRUE(controller_->submitJob(j).isOk());
  ASSERT_TRUE(tee_.waitFor([&] { return sawPhase(JobPhase::Restarting); }));
  ASSERT_TRUE(controller_->deleteJob("test", "rs").isOk());
  ASSERT_TRUE(tee_.waitFor([&] {
    return !controller_->getJob("test", "rs") && backend_->jobPods("test", "rs").empty() &&
           backend_->processIds().empty();
  }));
}

// The job's directory under workDir cannot be written (a file sits where it goes; as root, mode
// bits would not stop us): every pod creation fails naming the directory, the sync is retried
// until maxRequeue, then the job is terminated. Nothing is lost, nothing hangs.
TEST_P(FaultInjectionTest, AJobDirThatCannotBeWrittenFailsTheSyncNamingItThenTerminatesTheJob) {
  start();
  fs::create_directories(dir_ + "/test");
  std::ofstream(dir_ + "/test/nodir") << "not a directory";
  startController(ControllerConfig{2, 3});
  ASSERT_TRUE(controller_->submitJob(job("nodir", {task("main", "exit 0")})).isOk());
  ASSERT_TRUE(tee_.waitFor([&] { return sawPhase(JobPhase::Terminated); }));
  std::lock_guard lock(phaseMutex_);
  ASSERT_FALSE(errors_.empty());
  EXPECT_NE(errors_[0].find("cannot write the hosts file under " + dir_ + "/test/nodir"), std::string::npos) << errors_[0];
  EXPECT_EQ(controller_->getJob("test", "nodir")->status.state.phase, JobPhase::Terminated);
  EXPECT_TRUE(backend_->processIds().empty());
}

/// Listens on 0.0.0.0:<free port> while alive, so that a pod binding the port on its own address
/// collides with it.
class PortHolder {
 public:
  PortHolder() : fd_(::socket(AF_INET, SOCK_STREAM, 0)) {
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_ANY);
    socklen_t len = sizeof addr;
    if (::bind(fd_, reinterpret_cast<sockaddr*>(&addr), len) != 0 || ::listen(fd_, 1) != 0 ||
        ::getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len) != 0)
      throw std::runtime_error("cannot hold a port");
    port_ = ntohs(addr.sin_port);
  }
  ~PortHolder() { ::close(fd_); }
  int port() const { return port_; }

 private:
  int fd_;
  int port_ = 0;
};

// A pod whose server port is already taken exits with its own error (EADDRINUSE), the pod is
// Failed with that exit code and the job ends Failed; the host is untouched.
TEST_P(FaultInjectionTest, APortCollisionFailsThePodAndTheJobNotTheHost) {
  PortHolder held;
  start();
  startController();
  const std::string server = "import socket, sys\ns = socket.socket()\ntry:\n  s.bind((\"0.0.0.0\", " +
                             std::to_string(held.port()) + "))\nexcept OSError as e:\n  print(e)\n  sys.exit(98)\n";
  ASSERT_TRUE(controller_->submitJob(job("port", {task("server", "python3 -c '" + server + "'")})).isOk());
  ASSERT_TRUE(tee_.waitFor([&] { return sawPhase(JobPhase::Failed); }));
  const auto e = tee_.last("port-server-0");
  ASSERT_TRUE(e);
  EXPECT_EQ(e->pod.status.phase, PodPhase::Failed);
  ASSERT_TRUE(e->pod.status.containerStatuses[0].terminated);
  EXPECT_EQ(e->pod.status.containerStatuses[0].terminated->exitCode, 98);
  EXPECT_EQ(controller_->getJob("test", "port")->status.state.phase, JobPhase::Failed);
}

INSTANTIATE_TEST_SUITE_P(Isolation, FaultInjectionTest, ::testing::Values("native", "bwrap", "none"));

}  // namespace
}  // namespace jobhost
