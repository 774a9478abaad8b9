// probeLoadProblem: posix_spawn of jobhost-plugin-probe, a bounded wait reading what it says on
// stderr, and a per-file cache.
#include "host/plugin/load_probe.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/dll/runtime_symbol_info.hpp>
#include <chrono>
#include <filesystem>
#include <map>
#include <mutex>
#include <thread>
#include <tuple>
#include <vector>

extern char** environ;

namespace jobhost {
namespace {

constexpr auto kPatience = std::chrono::seconds(20);

std::string probeProgram() {
  std::error_code ec;
  const auto self = boost::dll::program_location(ec);
  if (ec) return "";
  const auto probe = std::filesystem::path(self.string()).parent_path() / "jobhost-plugin-probe";
  return ::access(probe.c_str(), X_OK) == 0 ? probe.string() : "";
}

/// Appends what `fd` (non-blocking) has to `out`, up to 4 KiB in all.
void drain(int fd, std::string& out) {
  char buffer[512];
  for (ssize_t n; (n = ::read(fd, buffer, sizeof buffer)) > 0;)
    if (out.size() < 4096) out.append(buffer, static_cast<size_t>(n));
}

/// The host's environment, with sanitizer options that let a crash in the probe end it by its
/// signal (a sanitizer build would otherwise report it and exit 1) and skip its leak check.
std::vector<std::string> probeEnvironment() {
  std::vector<std::string> env;
  const std::string quiet = "handle_segv=0:handle_sigbus=0:handle_abort=0:detect_leaks=0";
  bool asan = false, tsan = false;
  for (char** e = environ; *e != nullptr; ++e) {
    std::string entry = *e;
    if (entry.rfind("ASAN_OPTIONS=", 0) == 0) (asan = true, entry += ":" + quiet);
    if (entry.rfind("TSAN_OPTIONS=", 0) == 0) (tsan = true, entry += ":handle_segv=0:handle_sigbus=0:handle_abort=0");
    env.push_back(std::move(entry));
  }
  if (!asan) env.push_back("ASAN_OPTIONS=" + quiet);
  if (!tsan) env.push_back("TSAN_OPTIONS=handle_segv=0:handle_sigbus=0:handle_abort=0");
  return env;
}

std::optional<std::string> runProbe(const std::string& program, const std::string& file) {
  int pipe[2];
  if (::pipe2(pipe, O_CLOEXEC | O_NONBLOCK) != 0) return std::nullopt;
  std::string arg0 = program, arg1 = file;
  char* argv[] = {arg0.data(), arg1.data(), nullptr};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, pipe[1], STDERR_FILENO);
  pid_t pid = -1;
  std::vector<std::string> env = probeEnvironment();
  std::vector<char*> envp;
  for (auto& entry : env) envp.push_back(entry.data());
  envp.push_back(nullptr);
  const int rc = ::posix_spawn(&pid, program.c_str(), &actions, nullptr, argv, envp.data());
  posix_spawn_file_actions_destroy(&actions);
  ::close(pipe[1]);
  if (rc != 0) {
    ::close(pipe[0]);
    return std::nullopt;  // no probe: load as without one
  }
  const auto giveUp = std::chrono::steady_clock::now() + kPatience;
  std::string said;
  int status = 0;
  while (::waitpid(pid, &status, WNOHANG) == 0) {
    drain(pipe[0], said);
    if (std::chrono::steady_clock::now() > giveUp) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      ::close(pipe[0]);
      return "did not finish loading within 20s in a probe process (its static initialisation hangs?); fix or "
             "rebuild the plugin";
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  drain(pipe[0], said);
  ::close(pipe[0]);
  if (WIFSIGNALED(status))
    return std::string("crashed the dynamic loader (") + ::sigabbrev_np(WTERMSIG(status)) +
           " in a probe process): the file is damaged or not built for this system; copy it again or rebuild it";
  if (WEXITSTATUS(status) == 3)
    return "threw while it was loaded (in its static initialisation): " + said + "; fix the plugin's global objects";
  if (WEXITSTATUS(status) == 4)
    return "threw a non-standard exception while it was loaded (in its static initialisation); fix the plugin's "
           "global objects";
  if (WEXITSTATUS(status) != 0 && WEXITSTATUS(status) != 2)  // 2: dlopen refused it, which the host reports
    return "failed while it was loaded in a probe process (exit " + std::to_string(WEXITSTATUS(status)) +
           (said.empty() ? "" : ": " + said.substr(0, said.find('\n'))) + "); rebuild the plugin";
  return std::nullopt;
}

}  // namespace

std::optional<std::string> probeLoadProblem(const std::string& file) {
  struct stat st {};
  if (::stat(file.c_str(), &st) != 0) return std::nullopt;  // the host's own load names the problem
  using Key = std::tuple<dev_t, ino_t, off_t, time_t, long>;
  static std::mutex mutex;
  static auto* verdicts = new std::map<Key, std::optional<std::string>>();  // leaked: used until exit
  const Key key{st.st_dev, st.st_ino, st.st_size, st.st_mtim.tv_sec, st.st_mtim.tv_nsec};
  std::lock_guard lock(mutex);
  if (auto it = verdicts->find(key); it != verdicts->end()) return it->second;
  static const std::string program = probeProgram();
  std::optional<std::string> verdict = program.empty() ? std::nullopt : runProbe(program, file);
  verdicts->emplace(key, verdict);
  return verdict;
}

}  // namespace jobhost
