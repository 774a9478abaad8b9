// A native container's first process, between clone and exec: the parent compiles the mount plan,
// hostname and working directory into plain syscall steps on prepared strings; the clone child runs
// them with async-signal-safe calls only, starts the command (a vfork-style child of its own), and
// execs the init (container_init.c) in its own place, which so becomes the command's parent.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <deque>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "host/cluster/local/mount_plan.h"

namespace jobhost::local {

class NativeSetup {
 public:
  /// The parent's descriptors the child starts from (each >= 10, close-on-exec).
  struct Fds {
    int stdinFd = -1;
    int outputFd = -1;  // the container's stdout and stderr
    int statusFd = -1;  // the status pipe's write end
    int imageFd = -1;   // the init program
  };
  /// `candidates`: where to look for the command (executableCandidates); `argv`, `env`: the
  /// command's arguments and environment.
  NativeSetup(const ContainerSandbox& sandbox, const std::vector<std::string>& candidates,
              const std::vector<std::string>& argv, const std::vector<std::pair<std::string, std::string>>& env,
              Fds fds);
  NativeSetup(const NativeSetup&) = delete;
  NativeSetup& operator=(const NativeSetup&) = delete;

  using CloneFn = int (*)(int (*)(void*), void*, int, void*, ...);
  /// Clones the setup child with `flags` (CLONE_VM | CLONE_VFORK and the namespaces) on the stack
  /// ending at `stackTop`; returns once it exec'd the init or exited. The pid, or -1 and errno.
  pid_t start(void* stackTop, int flags);
  /// After the child exec'd or exited: whether it failed, and then the errno and whether the command
  /// could not be executed (else a setup step failed, described by failure()).
  bool failed() const { return failedStep_ >= 0; }
  int failedErrno() const { return failedErrno_; }
  bool commandFailed() const;
  std::string failure() const;

 private:
  enum class Op {
    Process,     // process group, die-with-parent, SIGCHLD default, descriptors 0-4, close the rest
    SlaveRoot,   // no mount event propagates back to the host
    Proc,        // a /proc of the new PID namespace
    Hostname,
    OpenShadow,  // path's original directory at descriptor `flags` (before anything covers it)
    RootTmpfs,   // a tmpfs (data: its mode) over "/", made the working directory
    EnterRoot,   // chroot into the working directory
    Tmpfs,       // a tmpfs (data: "mode=...") at path
    MakeDir,     // mkdir path (may exist)
    MakeFile,    // an empty file at path (may exist)
    Bind,        // source bound (recursively) at path
    ReadOnly,    // path's bind mount remounted read-only, keeping `flags`
    Symlink,     // path -> source
    Chdir,
    Command,     // the command, started as our child (its pid goes into the init's argv)
    Exec,        // the init, in our place
  };
  struct Step {
    Op op;
    const char* path = nullptr;
    const char* source = nullptr;
    const char* data = nullptr;
    unsigned long flags = 0;
  };

  static int run(void* arg);  // the setup child: execs the init or records the failed step, exits 127
  void compileMounts(const std::vector<MountStep>& steps);
  void add(Op op, const std::string& path = "", const std::string& source = "", const std::string& data = "",
           unsigned long flags = 0);
  const char* keep(const std::string& s);
  std::vector<char*> keepAll(const std::vector<std::string>& strings);
  bool execute(const Step& step);
  bool startCommand();
  static int runCommand(void* arg);
  std::string describe(const Step& step) const;

  std::deque<std::string> strings_;
  std::vector<Step> steps_;
  std::vector<char*> candidates_, argv_, envp_, initArgv_;
  char commandPid_[24] = {};  // the init's argv[1], written by the child
  std::unique_ptr<std::max_align_t[]> commandStack_;
  Fds fds_;
  CloneFn clone_;  // libc's clone (see native_setup.cpp)
  volatile int failedStep_ = -1;  // written by the child (shared memory until it execs)
  volatile int failedErrno_ = 0;
  volatile int commandErrno_ = 0;  // written by the command's process when no candidate runs
};

}  // namespace jobhost::local
