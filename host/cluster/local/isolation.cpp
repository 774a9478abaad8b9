// bubblewrap detection and command lines (see isolation.h). A mount target missing on the host
// gets its deepest existing ancestor "shadowed": a tmpfs with the ancestor's mode holding binds of
// every original entry, so bwrap creates the mount point in memory rather than on the host.
#include "host/cluster/local/isolation.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <set>

extern char** environ;

namespace fs = std::filesystem;

namespace jobhost::local {
namespace {

const char* const kBwrap = "bwrap";

bool trialRun() {
  std::vector<std::string> args = {kBwrap,       "--dev-bind", "/",    "/",         "--proc", "/proc", "--unshare-pid",
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

bool existsOnHost(const std::string& path) {
  struct stat st{};
  return ::stat(path.c_str(), &st) == 0;
}

bool isUnder(const std::string& path, const std::string& dir) {
  if (dir == "/") return true;
  return path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 && path[dir.size()] == '/';
}

size_t depth(const std::string& path) { return static_cast<size_t>(std::count(path.begin(), path.end(), '/')); }

std::string joinPath(const std::string& dir, const std::string& name) { return dir == "/" ? "/" + name : dir + "/" + name; }

// The deepest existing ancestor of each missing target, unless an earlier mount covers it.
std::set<std::string> shadowsFor(const std::vector<Mount>& mounts) {
  std::set<std::string> shadows;
  for (size_t i = 0; i < mounts.size(); ++i) {
    const std::string& t = mounts[i].target;
    bool covered = false;
    for (size_t j = 0; j < i; ++j) covered = covered || isUnder(t, mounts[j].target);
    if (covered || existsOnHost(t)) continue;
    fs::path p = fs::path(t).parent_path();
    while (!p.empty() && p != "/" && !existsOnHost(p.string())) p = p.parent_path();
    shadows.insert(p.empty() ? "/" : p.string());
  }
  return shadows;
}

// Rebuilds directory `dir` from the host's entries; nested shadows rebuild themselves later.
void shadow(const std::string& dir, const std::set<std::string>& shadows, std::vector<std::string>& out) {
  if (dir != "/") {
    struct stat st{};
    ::stat(dir.c_str(), &st);
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", st.st_mode & 07777);
    out.insert(out.end(), {"--perms", mode, "--tmpfs", dir});
  }
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string path = joinPath(dir, entry.path().filename().string());
    if (shadows.count(path)) continue;
    if (entry.is_symlink(ec)) {
      out.insert(out.end(), {"--symlink", fs::read_symlink(entry.path(), ec).string(), path});
    } else if (path == "/proc") {
      out.insert(out.end(), {"--proc", "/proc"});
    } else {
      out.insert(out.end(), {"--dev-bind", path, path});
    }
  }
}

}  // namespace

const char* toString(Isolation isolation) { return isolation == Isolation::Bwrap ? "bwrap" : "none"; }

Expected<Isolation> resolveIsolation(const std::string& setting) {
  if (setting == "none") return Isolation::None;
  const bool works = trialRun();
  if (setting == "bwrap" && !works)
    return Expected<Isolation>::failure(
        "isolation \"bwrap\": bubblewrap cannot run here (is it installed? `apt-get install bubblewrap`; "
        "unprivileged users also need user namespaces); use \"auto\" or \"none\"");
  return works ? Isolation::Bwrap : Isolation::None;
}

std::vector<std::string> bwrapArgs(const ContainerSandbox& sandbox) {
  std::vector<Mount> mounts = {{sandbox.hostsFile, "/etc/hosts", true}, {sandbox.hostnameFile, "/etc/hostname", true}};
  mounts.insert(mounts.end(), sandbox.mounts.begin(), sandbox.mounts.end());
  std::stable_sort(mounts.begin() + 2, mounts.end(),
                   [](const Mount& a, const Mount& b) { return depth(a.target) < depth(b.target); });
  const std::set<std::string> shadows = shadowsFor(mounts);

  std::vector<std::string> out = {kBwrap, "--die-with-parent", "--unshare-pid", "--unshare-uts", "--hostname",
                                  sandbox.hostname};
  if (!shadows.count("/")) out.insert(out.end(), {"--dev-bind", "/", "/", "--proc", "/proc"});
  for (const auto& dir : shadows) shadow(dir, shadows, out);  // std::set order: parents first
  for (const auto& m : mounts) out.insert(out.end(), {m.readOnly ? "--ro-bind" : "--bind", m.source, m.target});
  if (!sandbox.workingDir.empty()) out.insert(out.end(), {"--chdir", sandbox.workingDir});
  out.push_back("--");
  return out;
}

}  // namespace jobhost::local
