// bubblewrap detection and command lines (see bwrap.h). bwrap starts from an empty root, so an
// unshadowed host filesystem is bound at / and a shadowed "/" is bwrap's own root tmpfs.
#include "host/cluster/local/bwrap.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#include <cerrno>
#include <cstdio>

extern char** environ;

namespace jobhost::local {
namespace {

const char* const kBwrap = "bwrap";

bool trialRun() {
  std::vector<std::string> args = {kBwrap,          "--dev-bind",    "/", "/", "--proc", "/proc", "--unshare-pid",
                                   "--unshare-uts", "--die-with-parent", "--hostname", "jobhost-probe", "--", "true"};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  int rc = posix_spawnp(&pid, kBwrap, &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) return false;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

}  // namespace

bool bwrapWorks() {
  static const bool works = trialRun();
  return works;
}

std::vector<std::string> bwrapArgs(const ContainerSandbox& sandbox) {
  const std::vector<MountStep> steps = planMounts(sandbox);
  const bool rootShadowed = !steps.empty() && steps[0].kind == MountStep::Kind::Shadow && steps[0].target == "/";
  std::vector<std::string> out = {kBwrap, "--die-with-parent", "--unshare-pid", "--unshare-uts", "--hostname",
                                  sandbox.hostname};
  if (!rootShadowed) out.insert(out.end(), {"--dev-bind", "/", "/", "--proc", "/proc"});
  for (const auto& s : steps) {
    switch (s.kind) {
      case MountStep::Kind::Shadow:
        if (s.target != "/") {
          char mode[8];
          std::snprintf(mode, sizeof mode, "%04o", s.mode);
          out.insert(out.end(), {"--perms", mode, "--tmpfs", s.target});
        }
        break;
      case MountStep::Kind::Entry:
        if (s.target == "/proc")
          out.insert(out.end(), {"--proc", "/proc"});
        else
          out.insert(out.end(), {"--dev-bind", s.target, s.target});
        break;
      case MountStep::Kind::Symlink: out.insert(out.end(), {"--symlink", s.source, s.target}); break;
      case MountStep::Kind::Bind: out.insert(out.end(), {s.readOnly ? "--ro-bind" : "--bind", s.source, s.target}); break;
    }
  }
  if (!sandbox.workingDir.empty()) out.insert(out.end(), {"--chdir", sandbox.workingDir});
  out.push_back("--");
  return out;
}

}  // namespace jobhost::local
