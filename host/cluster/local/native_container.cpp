// Native containers (see native_container.h): descriptors and the setup are prepared here;
// clone(CLONE_VM | CLONE_VFORK | CLONE_NEW*) runs the setup in the child, which shares our memory
// (and records a failed step there) until it execs the init — after the command has exec'd.
#include "host/cluster/local/native_container.h"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstring>
#include <memory>
#include <utility>

#include "host/cluster/local/container_init.h"
#include "host/cluster/local/init_image.h"
#include "host/cluster/local/native_setup.h"

namespace jobhost::local {
namespace {

constexpr size_t kStackSize = 64 * 1024;

// Owns a descriptor, moved to >= 10 so that the child's dup2 onto 0-4 never overwrites another.
class Fd {
 public:
  explicit Fd(int fd = -1) : fd_(fd >= 0 && fd < 10 ? moved(fd) : fd) {}
  ~Fd() { reset(); }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }
  int release() { return std::exchange(fd_, -1); }
  void reset() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  static int moved(int fd) {
    const int high = ::fcntl(fd, F_DUPFD_CLOEXEC, 10);
    ::close(fd);
    return high;
  }
  int fd_;
};

std::string errnoText(const std::string& what) { return what + ": " + std::strerror(errno); }

}  // namespace

Expected<Spawned> spawnNative(const SpawnRequest& request, const ContainerSandbox& sandbox) {
  using R = Expected<Spawned>;
  if (request.argv.empty()) return R::failure("no command: the container sets neither command nor args");
  if (initImageFd() < 0) return R::failure("cannot load the container init: " + initImageError());
  Fd devNull(::open("/dev/null", O_RDONLY | O_CLOEXEC));
  Fd output(request.outputFd >= 0 ? ::fcntl(request.outputFd, F_DUPFD_CLOEXEC, 10)
                                  : ::open("/dev/null", O_WRONLY | O_CLOEXEC));
  if (devNull.get() < 0 || output.get() < 0) return R::failure(errnoText("cannot open the container's output"));
  int pipeFds[2];
  if (::pipe2(pipeFds, O_CLOEXEC | O_NONBLOCK) != 0) return R::failure(errnoText("pipe2"));
  Fd statusRead(pipeFds[0]), statusWrite(pipeFds[1]);
  Fd image(::fcntl(initImageFd(), F_DUPFD_CLOEXEC, 10));

  NativeSetup setup(sandbox, executableCandidates(request.argv[0], envValue(request.env, "PATH")), request.argv,
                    request.env, NativeSetup::Fds{devNull.get(), output.get(), statusWrite.get(), image.get()});

  auto stack = std::make_unique_for_overwrite<std::max_align_t[]>(kStackSize / sizeof(std::max_align_t));
  sigset_t all, old;
  sigfillset(&all);
  ::pthread_sigmask(SIG_SETMASK, &all, &old);  // no handler may run in the child (it shares our memory)
  const pid_t pid = setup.start(stack.get() + kStackSize / sizeof(std::max_align_t),
                                CLONE_VM | CLONE_VFORK | CLONE_NEWNS | CLONE_NEWUTS | CLONE_NEWPID | SIGCHLD);
  const int cloneErrno = errno;
  ::pthread_sigmask(SIG_SETMASK, &old, nullptr);
  if (pid < 0) return R::failure(std::string("cannot create the container's namespaces: ") + std::strerror(cloneErrno));
  if (setup.failed()) {
    ::waitpid(pid, nullptr, 0);
    if (setup.commandFailed()) return R::failure(execError(request.argv[0], setup.failedErrno()));
    return R::failure("container setup failed: " + setup.failure());
  }
  const int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
  if (pidfd < 0) {
    const std::string error = errnoText("pidfd_open failed");
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    return R::failure(error);
  }
  return Spawned{pid, pidfd, statusRead.release()};
}

ExitInfo reapNative(pid_t pid, int statusFd) {
  const ExitInfo init = reapProcess(pid);
  jobhost_init_report report{};
  if (::read(statusFd, &report, sizeof report) != static_cast<ssize_t>(sizeof report) ||
      report.kind != JOBHOST_INIT_EXITED)
    return init;
  if (WIFSIGNALED(report.value)) return ExitInfo{128 + WTERMSIG(report.value), WTERMSIG(report.value)};
  return ExitInfo{WEXITSTATUS(report.value), 0};
}

const std::string& nativeTrial() {
  static const std::string problem = [] {
    SpawnRequest request;
    request.argv = {"true"};
    const char* path = ::getenv("PATH");
    request.env = {{"PATH", path ? path : ""}};
    ContainerSandbox sandbox;
    sandbox.hostname = "jobhost-trial";
    auto spawned = spawnNative(request, sandbox);
    if (!spawned) return spawned.error();
    ::close(spawned->pidfd);
    const ExitInfo exit = reapNative(spawned->pid, spawned->statusFd);
    ::close(spawned->statusFd);
    if (exit.exitCode != 0) return "a trial container exited with " + std::to_string(exit.exitCode);
    return std::string();
  }();
  return problem;
}

}  // namespace jobhost::local
