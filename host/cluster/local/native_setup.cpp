// NativeSetup (see native_setup.h). A shadowed directory's original entries are bound from a
// descriptor opened before the tmpfs covers it (/proc/self/fd/N/<entry>); a tmpfs over "/" is
// populated through relative paths and then chroot'ed into. The command starts like posix_spawn's
// child: own process group, default signal dispositions, no blocked signal, each PATH candidate.
// The children run on our memory and thread state, so they call the kernel directly wherever
// a sanitizer would intercept the libc call and change the host's state (descriptor and signal
// tables, fork handling, exit); under ThreadSanitizer this file is not instrumented and clone()
// is libc's own (CMakeLists.txt), as TSan's clone() would re-initialise its state in the child.
#include "host/cluster/local/native_setup.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>

#include "host/cluster/local/container_init.h"

namespace jobhost::local {
namespace {

// The per-mount flags of `path`'s mount, kept when its bind is remounted read-only.
unsigned long mountFlagsOf(const std::string& path) {
  struct statvfs st{};
  if (::statvfs(path.c_str(), &st) != 0) return 0;
  unsigned long flags = 0;
  if (st.f_flag & ST_NOSUID) flags |= MS_NOSUID;
  if (st.f_flag & ST_NODEV) flags |= MS_NODEV;
  if (st.f_flag & ST_NOEXEC) flags |= MS_NOEXEC;
  if (st.f_flag & ST_NOATIME) flags |= MS_NOATIME;
  if (st.f_flag & ST_NODIRATIME) flags |= MS_NODIRATIME;
  if (st.f_flag & ST_RELATIME) flags |= MS_RELATIME;
  return flags;
}

std::string octal(mode_t mode) {
  char text[8];
  std::snprintf(text, sizeof text, "%04o", static_cast<unsigned>(mode & 07777));
  return text;
}

constexpr size_t kCommandStack = 32 * 1024;

NativeSetup::CloneFn libcClone() {
#if JOBHOST_BYPASS_TSAN_CLONE
  void* libc = ::dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
  if (void* fn = libc ? ::dlsym(libc, "clone") : nullptr) return reinterpret_cast<NativeSetup::CloneFn>(fn);
#endif
  return &::clone;
}

// Direct system calls for the children (see the header comment).
bool closeFd(int fd) { return ::syscall(SYS_close, fd) == 0; }
bool moveFd(int from, int to, int flags) { return ::syscall(SYS_dup3, from, to, flags) == to; }
int openDirectory(const char* path) {
  return static_cast<int>(::syscall(SYS_openat, AT_FDCWD, path, O_PATH | O_DIRECTORY | O_CLOEXEC, 0));
}
bool dieWithParent() { return ::syscall(SYS_prctl, PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) == 0; }
bool defaultDisposition(int sig) {
#if defined(__x86_64__) || defined(__aarch64__)
  struct {
    void (*handler)(int);
    unsigned long flags;
    void (*restorer)();
    uint64_t mask;
  } action{SIG_DFL, 0, nullptr, 0};  // the kernel's struct sigaction on these (SA_RESTORER) architectures
  return ::syscall(SYS_rt_sigaction, sig, &action, nullptr, sizeof action.mask) == 0;
#else
  struct sigaction action{};
  action.sa_handler = SIG_DFL;
  return ::sigaction(sig, &action, nullptr) == 0;
#endif
}
void unblockAllSignals() {
  const uint64_t none = 0;
  ::syscall(SYS_rt_sigprocmask, SIG_SETMASK, &none, nullptr, sizeof none);
}
[[noreturn]] void exitNow(int code) {
  for (;;) ::syscall(SYS_exit_group, code);
}

}  // namespace

NativeSetup::NativeSetup(const ContainerSandbox& sandbox, const std::vector<std::string>& candidates,
                         const std::vector<std::string>& argv,
                         const std::vector<std::pair<std::string, std::string>>& env, Fds fds)
    : commandStack_(std::make_unique_for_overwrite<std::max_align_t[]>(kCommandStack / sizeof(std::max_align_t))),
      fds_(fds),
      clone_(libcClone()) {
  add(Op::Process);
  add(Op::SlaveRoot);
  add(Op::Proc);
  if (!sandbox.hostname.empty()) add(Op::Hostname, "", "", sandbox.hostname, sandbox.hostname.size());
  compileMounts(planMounts(sandbox));
  if (!sandbox.workingDir.empty()) add(Op::Chdir, sandbox.workingDir);
  add(Op::Command);
  add(Op::Exec);
  candidates_ = keepAll(candidates);
  argv_ = keepAll(argv);
  std::vector<std::string> envStrings;
  for (const auto& [name, value] : env) envStrings.push_back(name + "=" + value);
  envp_ = keepAll(envStrings);
  initArgv_ = {const_cast<char*>(keep("jobhost-init")), commandPid_, nullptr};
}

std::vector<char*> NativeSetup::keepAll(const std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (const auto& s : strings) out.push_back(const_cast<char*>(keep(s)));
  out.push_back(nullptr);
  return out;
}

const char* NativeSetup::keep(const std::string& s) { return strings_.emplace_back(s).c_str(); }

void NativeSetup::add(Op op, const std::string& path, const std::string& source, const std::string& data,
                      unsigned long flags) {
  steps_.push_back(Step{op, keep(path), keep(source), keep(data), flags});
}

void NativeSetup::compileMounts(const std::vector<MountStep>& steps) {
  // Every shadowed directory is opened first, while the host's tree is whole.
  std::vector<std::string> originals;  // "/proc/self/fd/<n>/" per shadow, in order
  int fd = JOBHOST_INIT_FIRST_FREE_FD;
  for (const auto& s : steps)
    if (s.kind == MountStep::Kind::Shadow) {
      add(Op::OpenShadow, s.target, "", "", static_cast<unsigned long>(fd));
      originals.push_back("/proc/self/fd/" + std::to_string(fd++) + "/");
    }
  bool inRoot = false;  // populating the tmpfs over "/" (the working directory) by relative paths
  size_t shadow = 0;
  std::string original;
  for (const auto& s : steps) {
    const bool entry = s.kind == MountStep::Kind::Entry || s.kind == MountStep::Kind::Symlink;
    if (inRoot && !entry) {
      add(Op::EnterRoot);
      inRoot = false;
    }
    const std::string target = inRoot ? s.target.substr(1) : s.target;
    switch (s.kind) {
      case MountStep::Kind::Shadow:
        original = originals[shadow++];
        if (s.target == "/") {
          add(Op::RootTmpfs, "/", "", octal(s.mode));
          inRoot = true;
        } else {
          add(Op::MakeDir, s.target);
          add(Op::Tmpfs, s.target, "", "mode=" + octal(s.mode));
        }
        break;
      case MountStep::Kind::Entry:
        add(s.directory ? Op::MakeDir : Op::MakeFile, target);
        add(Op::Bind, target, original + s.target.substr(s.target.rfind('/') + 1));
        break;
      case MountStep::Kind::Symlink: add(Op::Symlink, target, s.source); break;
      case MountStep::Kind::Bind:
        if (s.createTarget) {
          for (size_t slash = s.target.find('/', 1); slash != std::string::npos; slash = s.target.find('/', slash + 1))
            add(Op::MakeDir, s.target.substr(0, slash));
          add(s.directory ? Op::MakeDir : Op::MakeFile, s.target);
        }
        add(Op::Bind, s.target, s.source);
        if (s.readOnly) add(Op::ReadOnly, s.target, "", "", mountFlagsOf(s.source));
        break;
    }
  }
  if (inRoot) add(Op::EnterRoot);
}

// Async-signal-safe: system calls on prepared strings only.
bool NativeSetup::execute(const Step& s) {
  switch (s.op) {
    case Op::Process:  // SIGCHLD at its default: the init reaps the command (an ignored one would not wait)
      return ::setpgid(0, 0) == 0 && dieWithParent() && defaultDisposition(SIGCHLD) &&
             moveFd(fds_.stdinFd, 0, 0) && moveFd(fds_.outputFd, 1, 0) && moveFd(fds_.outputFd, 2, 0) &&
             moveFd(fds_.statusFd, JOBHOST_INIT_STATUS_FD, 0) &&
             moveFd(fds_.imageFd, JOBHOST_INIT_IMAGE_FD, O_CLOEXEC) &&
             ::syscall(SYS_close_range, JOBHOST_INIT_FIRST_FREE_FD, ~0U, 0) == 0;
    case Op::SlaveRoot: return ::mount(nullptr, "/", nullptr, MS_REC | MS_SLAVE, nullptr) == 0;
    case Op::Proc: return ::mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, nullptr) == 0;
    case Op::Hostname: return ::sethostname(s.data, s.flags) == 0;
    case Op::OpenShadow: {
      const int fd = openDirectory(s.path);
      if (fd < 0 || fd == static_cast<int>(s.flags)) return fd >= 0;
      const bool ok = moveFd(fd, static_cast<int>(s.flags), O_CLOEXEC);
      closeFd(fd);
      return ok;
    }
    case Op::RootTmpfs: {
      const int fs = ::fsopen("tmpfs", FSOPEN_CLOEXEC);
      if (fs < 0) return false;
      int mnt = -1;
      const bool ok = ::fsconfig(fs, FSCONFIG_SET_STRING, "mode", s.data, 0) == 0 &&
                      ::fsconfig(fs, FSCONFIG_CMD_CREATE, nullptr, nullptr, 0) == 0 &&
                      (mnt = ::fsmount(fs, FSMOUNT_CLOEXEC, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV)) >= 0 &&
                      ::move_mount(mnt, "", AT_FDCWD, "/", MOVE_MOUNT_F_EMPTY_PATH) == 0 && ::fchdir(mnt) == 0;
      const int err = errno;
      closeFd(fs);
      if (mnt >= 0) closeFd(mnt);
      errno = err;
      return ok;
    }
    case Op::EnterRoot: return ::chroot(".") == 0 && ::chdir("/") == 0;
    case Op::Tmpfs: return ::mount("tmpfs", s.path, "tmpfs", MS_NOSUID | MS_NODEV, s.data) == 0;
    case Op::MakeDir: return ::mkdir(s.path, 0755) == 0 || errno == EEXIST;
    case Op::MakeFile: return ::mknod(s.path, S_IFREG | 0644, 0) == 0 || errno == EEXIST;
    case Op::Bind: return ::mount(s.source, s.path, nullptr, MS_BIND | MS_REC, nullptr) == 0;
    case Op::ReadOnly:
      return ::mount(nullptr, s.path, nullptr, MS_BIND | MS_REMOUNT | MS_RDONLY | s.flags, nullptr) == 0;
    case Op::Symlink: return ::symlink(s.source, s.path) == 0;
    case Op::Chdir: return ::chdir(s.path) == 0;
    case Op::Command: return startCommand();
    case Op::Exec: {
      char* noEnv[] = {nullptr};
      ::execveat(JOBHOST_INIT_IMAGE_FD, "", initArgv_.data(), noEnv, AT_EMPTY_PATH);
      return false;
    }
  }
  return false;
}

// Starts the command as our child and writes its pid (in the new namespace) into the init's argv.
bool NativeSetup::startCommand() {
  const pid_t pid = clone_(&NativeSetup::runCommand, commandStack_.get() + kCommandStack / sizeof(std::max_align_t),
                           CLONE_VM | CLONE_VFORK | SIGCHLD, this);
  if (pid < 0) return false;
  if (commandErrno_) {
    errno = commandErrno_;
    return false;
  }
  char digits[24];
  size_t n = 0;
  for (unsigned long v = static_cast<unsigned long>(pid); v > 0 || n == 0; v /= 10) digits[n++] = static_cast<char>('0' + v % 10);
  for (size_t i = 0; i < n; ++i) commandPid_[i] = digits[n - 1 - i];
  commandPid_[n] = '\0';
  return true;
}

// The command's process (shares our memory until it execs).
int NativeSetup::runCommand(void* arg) {
  auto* self = static_cast<NativeSetup*>(arg);
  closeFd(JOBHOST_INIT_STATUS_FD);
  ::setpgid(0, 0);
  for (int sig = 1; sig < NSIG; ++sig) defaultDisposition(sig);  // SIGKILL/SIGSTOP refuse: fine
  unblockAllSignals();
  int err = ENOENT;
  for (size_t i = 0; self->candidates_[i]; ++i) {
    ::execve(self->candidates_[i], self->argv_.data(), self->envp_.data());
    if (errno == EACCES)
      err = EACCES;
    else if (errno != ENOENT && errno != ENOTDIR) {
      err = errno;
      break;
    }
  }
  self->commandErrno_ = err;
  exitNow(127);
}

int NativeSetup::run(void* arg) {
  auto* self = static_cast<NativeSetup*>(arg);
  for (size_t i = 0; i < self->steps_.size(); ++i)
    if (!self->execute(self->steps_[i])) {
      self->failedErrno_ = errno;
      self->failedStep_ = static_cast<int>(i);
      break;
    }
  exitNow(127);
}

pid_t NativeSetup::start(void* stackTop, int flags) { return clone_(&NativeSetup::run, stackTop, flags, this); }

bool NativeSetup::commandFailed() const {
  return failedStep_ >= 0 && steps_[static_cast<size_t>(failedStep_)].op == Op::Command;
}

std::string NativeSetup::failure() const {
  if (failedStep_ < 0) return "";
  return describe(steps_[static_cast<size_t>(failedStep_)]) + ": " + std::strerror(failedErrno_);
}

std::string NativeSetup::describe(const Step& s) const {
  const std::string path = s.path, source = s.source;
  switch (s.op) {
    case Op::Process: return "set up the process group and descriptors";
    case Op::SlaveRoot: return "make the mount namespace private";
    case Op::Proc: return "mount /proc";
    case Op::Hostname: return std::string("set the hostname ") + s.data;
    case Op::OpenShadow: return "open " + path;
    case Op::RootTmpfs: return "mount a tmpfs over /";
    case Op::EnterRoot: return "enter the new root";
    case Op::Tmpfs: return "mount a tmpfs over " + path;
    case Op::MakeDir: return "create directory " + path;
    case Op::MakeFile: return "create mount point " + path;
    case Op::Bind: return "bind " + source + " at " + path;
    case Op::ReadOnly: return "make " + path + " read-only";
    case Op::Symlink: return "create symlink " + path;
    case Op::Chdir: return "change to the working directory " + path;
    case Op::Command: return "start the command";
    case Op::Exec: return "start the container init";
  }
  return "set up the container";
}

}  // namespace jobhost::local
