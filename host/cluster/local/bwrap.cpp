// bubblewrap detection and command lines (see bwrap.h). bwrap starts from an empty root, so an
// unshadowed host filesystem is bound at / and a shadowed "/" is bwrap's own root tmpfs.
#include "host/cluster/local/bwrap.h"

#include <sys/wait.h>

#include <cerrno>
#include <cstdio>

#include "host/cluster/local/process.h"

namespace jobhost::local {
namespace {

const char* const kBwrap = "bwrap";

bool trialRun() {
  const pid_t pid = spawnSilently({kBwrap, "--dev-bind", "/", "/", "--proc", "/proc", "--unshare-pid", "--unshare-uts",
                                   "--die-with-parent", "--hostname", "jobhost-probe", "--", "true"});
  if (pid < 0) return false;
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
