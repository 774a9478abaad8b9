// Secret hygiene: ssh private keys (generated or given as plugin args) never reach the logs at
// trace level, `jobhost render` without --show-secrets, or error and warning messages.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>

#include "host/cli/cli.h"
#include "host/cluster/sim/sim_cluster.h"
#include "host/cluster/sim/sim_driver.h"
#include "host/common/log.h"
#include "host/controller/controller.h"
#include "host/controller/virtual_clock.h"
#include "host/plugin/plugin_job_plugins.h"

namespace jobhost {
namespace {

namespace fs = std::filesystem;

/// Every line of a PEM body (the base64 lines between BEGIN and END), each at least 40 chars.
std::vector<std::string> pemBodyLines(const std::string& pem) {
  std::vector<std::string> lines;
  std::istringstream in(pem);
  for (std::string line; std::getline(in, line);)
    if (line.size() >= 40 && line.find("-----") == std::string::npos) lines.push_back(line);
  return lines;
}

/// Redirects fd 2 (where every module logger writes) into a file while alive.
class StderrCapture {
 public:
  StderrCapture() : path_(fs::temp_directory_path() / ("jobhost-log-" + std::to_string(::getpid()))) {
    std::fflush(stderr);
    saved_ = ::dup(2);
    FILE* f = std::fopen(path_.c_str(), "w");
    ::dup2(::fileno(f), 2);
    std::fclose(f);
  }
  std::string finish() {
    std::fflush(stderr);
    spdlog::apply_all([](const std::shared_ptr<spdlog::logger>& l) { l->flush(); });
    ::dup2(saved_, 2);
    ::close(saved_);
    std::ifstream in(path_);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    fs::remove(path_);
    return text;
  }

 private:
  fs::path path_;
  int saved_ = -1;
};

Job sshJob() {
  Job job;
  job.metadata.name = "mpi";
  job.metadata.namespace_ = "secrets";
  job.spec.queue = "default";
  job.spec.schedulerName = "volcano";
  job.spec.minAvailable = 2;
  TaskSpec task;
  task.name = "worker";
  task.replicas = 2;
  Container c;
  c.name = "main";
  c.image = "mpi";
  task.template_.spec.containers.push_back(c);
  task.template_.spec.restartPolicy = "Never";
  job.spec.tasks.push_back(task);
  job.spec.plugins = {{"ssh", {}}, {"svc", {}}};
  return job;
}

TEST(SecretHygiene, GeneratedKeyNeverReachesTraceLogsOrJobStatus) {
  auto config = defaultHostConfig();
  ASSERT_TRUE(config) << config.error();
  config->pluginPath = {JOBHOST_PLUGIN_DIR};
  auto registry = Registry::load(*config);
  ASSERT_TRUE(registry) << registry.error();
  PluginJobPlugins plugins(*registry, {});
  VirtualClock clock{0};
  SimCluster sim(clock, SimBackendConfig{});
  Controller controller(ControllerConfig{2, 15}, clock, sim, plugins);
  SimDriver driver(clock, sim, controller);
  std::mutex mutex;
  std::string errors;
  controller.setObserver([&](const HandledRequest& r) {
    std::lock_guard lock(mutex);
    errors += r.error;
  });

  StderrCapture capture;
  ASSERT_TRUE(log::setLevel("trace"));
  controller.start();
  ASSERT_TRUE(controller.submitJob(sshJob()));
  driver.runUntil(5000);  // pods running, the ssh Secret exists
  auto secret = sim.getSecret("secrets", "mpi-ssh");
  driver.runUntil(SimDriver::kForever);
  auto job = controller.getJob("secrets", "mpi");
  controller.stop();
  log::get("faults")->debug("capture marker");
  log::setLevel("off");
  const std::string logs = capture.finish();

  ASSERT_TRUE(secret.has_value());
  const auto body = pemBodyLines(secret->data.at("id_rsa"));
  ASSERT_GE(body.size(), 10u);  // a real RSA key
  EXPECT_NE(logs.find("capture marker"), std::string::npos) << "the log capture missed debug output";
  ASSERT_TRUE(job.has_value());
  EXPECT_EQ(job->status.state.phase, JobPhase::Completed);
  const std::string status = job->status.state.reason + job->status.state.message;
  for (const auto& line : body) {
    EXPECT_EQ(logs.find(line), std::string::npos) << "private key material in the logs";
    EXPECT_EQ(errors.find(line), std::string::npos) << "private key material in an error";
    EXPECT_EQ(status.find(line), std::string::npos) << "private key material in the job status";
  }
}

// A user-supplied key (--ssh-private-key) must not leak through render output or error messages.
const std::string kUserKey =
    "-----BEGIN RSA PRIVATE KEY-----\n"
    "MIIEowIBAAKCAQEAuserKEYmaterialTHATmustNEVERbePRINTEDanywhereAAAAAAAAAA\n"
    "QmVsb25ncyB0byB0aGUgc2VjcmV0IGh5Z2llbmUgdGVzdCBvbmx5LCBub3QgYSByZWFsIGtleQ\n"
    "-----END RSA PRIVATE KEY-----\n";

fs::path writeJob(const std::string& name, const std::vector<std::string>& sshArgs) {
  fs::path path = fs::temp_directory_path() / (name + "-" + std::to_string(::getpid()) + ".yaml");
  std::ofstream out(path);
  out << "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata:\n  name: " << name
      << "\nspec:\n  minAvailable: 1\n  plugins:\n    svc: []\n    ssh:\n";
  for (const auto& a : sshArgs) {
    out << "      - |-\n";
    std::istringstream lines(a);
    for (std::string l; std::getline(lines, l);) out << "        " << l << "\n";
  }
  out << "  tasks:\n    - name: worker\n      replicas: 2\n      template:\n        spec:\n"
         "          restartPolicy: Never\n          containers:\n            - name: main\n              image: mpi\n";
  return path;
}

void expectNoKey(const std::string& text, const std::string& what) {
  for (const auto& line : pemBodyLines(kUserKey)) EXPECT_EQ(text.find(line), std::string::npos) << what;
}

// Disabled: `jobhost render` prints the Job with spec.plugins.ssh verbatim, so a key given as
// --ssh-private-key appears without --show-secrets (reported; host/cli render + host/spec encoders).
TEST(SecretHygiene, RenderRedactsUserKeysUnlessAsked) {
  const fs::path job = writeJob("user-key", {"--ssh-private-key=" + kUserKey, "--ssh-public-key=ssh-rsa AAAA user"});
  for (const std::vector<std::string>& format : {std::vector<std::string>{}, {"-o", "json"}}) {
    std::ostringstream out, err;
    std::vector<std::string> argv = {"render", job.string()};
    argv.insert(argv.end(), format.begin(), format.end());
    ASSERT_EQ(cli::runCli(argv, {out, err}), cli::kOk) << err.str();
    expectNoKey(out.str() + err.str(), "render without --show-secrets");
    argv.push_back("--show-secrets");
    std::ostringstream shown, err2;
    ASSERT_EQ(cli::runCli(argv, {shown, err2}), cli::kOk) << err2.str();
    EXPECT_NE(shown.str().find("userKEYmaterial"), std::string::npos) << "--show-secrets shows the key";
  }
  fs::remove(job);
}

// A bad ssh flag is admitted with a warning (as Volcano runs the job); the warning, like the rest
// of the output, carries no key.
TEST(SecretHygiene, WarningsAboutSshArgsCarryNoKey) {
  for (const auto& bad : {std::string("--ssh-port=not-a-port"), std::string("--no-such-flag=1")}) {
    const fs::path job = writeJob("bad-args", {"--ssh-private-key=" + kUserKey, bad});
    for (const char* command : {"render", "validate"}) {
      std::ostringstream out, err;
      EXPECT_EQ(cli::runCli({command, job.string()}, {out, err}), cli::kOk) << command << " rejected " << bad;
      EXPECT_NE((out.str() + err.str()).find("warning: spec.plugins.ssh: plugin ssh: "), std::string::npos)
          << command << ": " << err.str();
      expectNoKey(out.str() + err.str(), std::string(command) + " with " + bad);
    }
    fs::remove(job);
  }
}

}  // namespace
}  // namespace jobhost
