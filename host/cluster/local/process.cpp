// posix_spawn-based process start, reaping, and process-group signalling (see process.h).
// The spawning thread should live as long as the children (bwrap uses --die-with-parent).
#include "host/cluster/local/process.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <sstream>

namespace jobhost::local {
namespace {

const char* const kDefaultPath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

// A /proc file's text, or "" once the process is gone. Plain read(2): a process exiting during the
// read fails it with ESRCH, which std::filebuf would throw as an exception through the event loop.
std::string readProcFile(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return "";
  std::string out;
  char buf[1024];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n > 0) {
      out.append(buf, static_cast<size_t>(n));
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      if (n < 0) out.clear();
      break;
    }
  }
  ::close(fd);
  return out;
}

}  // namespace

std::string envValue(const std::vector<std::pair<std::string, std::string>>& env, const std::string& name) {
  for (const auto& [n, v] : env)
    if (n == name) return v;
  return "";
}

std::vector<std::string> executableCandidates(const std::string& name, const std::string& path) {
  if (name.find('/') != std::string::npos) return {name};
  std::vector<std::string> out;
  std::stringstream dirs(path.empty() ? kDefaultPath : path);
  std::string dir;
  while (std::getline(dirs, dir, ':')) out.push_back((dir.empty() ? "." : dir) + "/" + name);
  return out;
}

std::string findExecutable(const std::string& name, const std::string& path) {
  if (name.find('/') != std::string::npos) return name;
  for (const auto& candidate : executableCandidates(name, path)) {
    struct stat st{};
    if (::stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(candidate.c_str(), X_OK) == 0)
      return candidate;
  }
  return "";
}

std::string execError(const std::string& name, int err) {
  if (err == ENOENT && name.find('/') == std::string::npos) return "executable \"" + name + "\" not found in PATH";
  return "cannot start \"" + name + "\": " + std::strerror(err);
}

Expected<Spawned> spawnProcess(const SpawnRequest& request) {
  using R = Expected<Spawned>;
  if (request.argv.empty()) return R::failure("no command: the container sets neither command nor args");
  const std::string exe = findExecutable(request.argv[0], envValue(request.env, "PATH"));
  if (exe.empty()) return R::failure(execError(request.argv[0], ENOENT));

  std::vector<std::string> envStrings;
  for (const auto& [n, v] : request.env) envStrings.push_back(n + "=" + v);
  std::vector<char*> argv, envp;
  for (const auto& a : request.argv) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  for (auto& e : envStrings) envp.push_back(e.data());
  envp.push_back(nullptr);

  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t none, all;
  sigemptyset(&none);
  sigfillset(&all);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &all);
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  if (request.outputFd >= 0)
    posix_spawn_file_actions_adddup2(&fa, request.outputFd, 1);
  else
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  if (!request.workingDir.empty()) posix_spawn_file_actions_addchdir_np(&fa, request.workingDir.c_str());
  if (request.inheritedFd > 3) posix_spawn_file_actions_adddup2(&fa, request.inheritedFd, 3);
  posix_spawn_file_actions_addclosefrom_np(&fa, request.inheritedFd > 3 ? 4 : 3);

  pid_t pid = -1;
  const int rc = posix_spawn(&pid, exe.c_str(), &fa, &attr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) return R::failure("cannot start \"" + exe + "\": " + std::strerror(rc));
  const int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
  if (pidfd < 0) {
    const int err = errno;
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    return R::failure(std::string("pidfd_open failed: ") + std::strerror(err));
  }
  return Spawned{pid, pidfd};
}

ExitInfo reapProcess(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return ExitInfo{255, 0};
  }
  if (WIFSIGNALED(status)) return ExitInfo{128 + WTERMSIG(status), WTERMSIG(status)};
  return ExitInfo{WEXITSTATUS(status), 0};
}

std::vector<pid_t> processGroupMembers(pid_t pgid) {
  std::vector<pid_t> out;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", ec)) {
    const std::string name = entry.path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    const std::string stat = readProcFile(entry.path().string() + "/stat");
    const size_t close = stat.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream rest(stat.substr(close + 1));
    std::string state;
    long ppid = 0, pgrp = 0;
    if (rest >> state >> ppid >> pgrp && pgrp == pgid) out.push_back(static_cast<pid_t>(std::stol(name)));
  }
  return out;
}

int signalContainer(pid_t pgid, int sig, std::optional<pid_t> sparedInit) {
  if (!sparedInit) return ::kill(-pgid, sig) == 0 ? 1 : 0;
  int signalled = 0;
  if (*sparedInit <= 0) return 0;
  for (pid_t pid : processGroupMembers(pgid))
    if (pid != pgid && pid != *sparedInit && ::kill(pid, sig) == 0) ++signalled;
  return signalled;
}

void killContainer(pid_t pgid, int initPidfd) {
  if (initPidfd >= 0 && ::syscall(SYS_pidfd_send_signal, initPidfd, SIGKILL, nullptr, 0) == 0) return;
  if (pgid > 0) ::kill(-pgid, SIGKILL);
}

pid_t spawnSilently(std::vector<std::string> argv) {
  std::vector<char*> args;
  for (auto& a : argv) args.push_back(a.data());
  args.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid = -1;
  if (::posix_spawnp(&pid, args[0], &fa, nullptr, args.data(), environ) != 0) pid = -1;
  posix_spawn_file_actions_destroy(&fa);
  return pid;
}

}  // namespace jobhost::local
