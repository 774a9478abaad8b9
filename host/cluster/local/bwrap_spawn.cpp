// Starting a container under bwrap (see bwrap.h): bwrap reports the init of the container's PID
// namespace on --info-fd, and jobhost holds a pidfd to it, so that it kills and waits for the namespace.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>

#include "host/cluster/local/bwrap.h"

namespace jobhost::local {
namespace {

// Everything bwrap writes on the info descriptor: it closes it once the init exists, or exits.
std::string readToEnd(int fd) {
  std::string out;
  char buf[512];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n > 0) out.append(buf, static_cast<size_t>(n));
    else if (n == 0 || errno != EINTR) return out;
  }
}

// The number after `"key":` in bwrap's flat info object, or -1.
long long numberAt(const std::string& info, const std::string& key) {
  const size_t at = info.find("\"" + key + "\"");
  if (at == std::string::npos) return -1;
  const size_t colon = info.find(':', at);
  if (colon == std::string::npos) return -1;
  char* end = nullptr;
  const long long value = std::strtoll(info.c_str() + colon + 1, &end, 10);
  return end == info.c_str() + colon + 1 ? -1 : value;
}

// A pidfd to the namespace's init, checked to be that init (the pid lives in bwrap's new PID
// namespace), or -1 when it has already exited: then nothing of the namespace is left.
int initPidfd(pid_t init, long long namespaceInode) {
  const int fd = static_cast<int>(::syscall(SYS_pidfd_open, init, 0));
  if (fd < 0) return -1;
  struct stat st{};
  if (::stat(("/proc/" + std::to_string(init) + "/ns/pid").c_str(), &st) != 0 ||
      static_cast<long long>(st.st_ino) != namespaceInode) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// True when `path` is a mount target of the sandbox or lies under one (it exists only inside).
bool insideMounts(const std::string& path, const std::vector<Mount>& mounts) {
  return std::any_of(mounts.begin(), mounts.end(), [&](const Mount& m) {
    return path == m.target || path.rfind(m.target + "/", 0) == 0;
  });
}

// Why the container's program cannot start, or "". bwrap would look it up inside the sandbox and
// exit 1 on its own; the sandbox shows the host's filesystem, so outside volumes the host decides,
// and a missing program becomes a StartError (exit 128) as under the other isolations.
std::string programProblem(const SpawnRequest& command, const ContainerSandbox& sandbox) {
  if (command.argv.empty()) return "";
  const std::string& program = command.argv[0];
  const std::string path = envValue(command.env, "PATH");
  if (program.find('/') != std::string::npos) {
    if (program.front() != '/' || insideMounts(program, sandbox.mounts) || ::access(program.c_str(), X_OK) == 0)
      return "";
    return execError(program, errno);
  }
  for (const auto& candidate : executableCandidates(program, path))
    if (candidate.front() != '/' || insideMounts(candidate, sandbox.mounts)) return "";  // decided inside
  return findExecutable(program, path).empty() ? execError(program, ENOENT) : "";
}

}  // namespace

Expected<Spawned> spawnBwrap(const SpawnRequest& command, const ContainerSandbox& sandbox) {
  using R = Expected<Spawned>;
  if (std::string problem = programProblem(command, sandbox); !problem.empty()) return R::failure(problem);
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return R::failure(std::string("pipe2: ") + std::strerror(errno));
  const int infoWrite = ::fcntl(fds[1], F_DUPFD_CLOEXEC, 10);  // becomes bwrap's descriptor 3
  ::close(fds[1]);
  if (infoWrite < 0) {
    ::close(fds[0]);
    return R::failure(std::string("fcntl: ") + std::strerror(errno));
  }
  SpawnRequest request = command;
  request.argv = bwrapArgs(sandbox);
  request.argv.insert(request.argv.begin() + 1, {"--info-fd", "3"});
  const char* path = std::getenv("PATH");
  if (auto bwrap = findExecutable(request.argv[0], path ? path : ""); !bwrap.empty()) request.argv[0] = bwrap;
  request.argv.insert(request.argv.end(), command.argv.begin(), command.argv.end());
  request.inheritedFd = infoWrite;
  auto spawned = spawnProcess(request);
  ::close(infoWrite);
  const std::string info = readToEnd(fds[0]);
  ::close(fds[0]);
  if (!spawned) return spawned;
  const long long init = numberAt(info, "child-pid");
  if (init > 0) spawned->initPidfd = initPidfd(static_cast<pid_t>(init), numberAt(info, "pid-namespace"));
  if (spawned->initPidfd >= 0) spawned->initPid = static_cast<pid_t>(init);
  return spawned;
}

}  // namespace jobhost::local
