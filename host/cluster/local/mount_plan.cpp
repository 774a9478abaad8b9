// Mount planning (see mount_plan.h). A mount target missing on the host gets its deepest existing
// ancestor shadowed: a tmpfs with the ancestor's mode holding every original entry again, so the
// mount point is created in memory rather than on the host.
#include "host/cluster/local/mount_plan.h"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <set>

namespace fs = std::filesystem;

namespace jobhost::local {
namespace {

bool existsOnHost(const std::string& path) {
  struct stat st{};
  return ::stat(path.c_str(), &st) == 0;
}

bool isDirectory(const std::string& path) {
  struct stat st{};
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

bool isUnder(const std::string& path, const std::string& dir) {
  if (dir == "/") return true;
  return path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 && path[dir.size()] == '/';
}

size_t depth(const std::string& path) { return static_cast<size_t>(std::count(path.begin(), path.end(), '/')); }

std::string joinPath(const std::string& dir, const std::string& name) { return dir == "/" ? "/" + name : dir + "/" + name; }

bool coveredByEarlier(const std::vector<Mount>& mounts, size_t i) {
  for (size_t j = 0; j < i; ++j)
    if (isUnder(mounts[i].target, mounts[j].target)) return true;
  return false;
}

// The deepest existing ancestor of each missing target, unless an earlier mount covers it.
std::set<std::string> shadowsFor(const std::vector<Mount>& mounts) {
  std::set<std::string> shadows;
  for (size_t i = 0; i < mounts.size(); ++i) {
    const std::string& t = mounts[i].target;
    if (coveredByEarlier(mounts, i) || existsOnHost(t)) continue;
    fs::path p = fs::path(t).parent_path();
    while (!p.empty() && p != "/" && !existsOnHost(p.string())) p = p.parent_path();
    shadows.insert(p.empty() ? "/" : p.string());
  }
  return shadows;
}

// Rebuilds directory `dir` from the host's entries; nested shadows rebuild themselves later.
void shadow(const std::string& dir, const std::set<std::string>& shadows, std::vector<MountStep>& out) {
  struct stat st{};
  ::stat(dir.c_str(), &st);
  out.push_back(MountStep{MountStep::Kind::Shadow, "", dir, static_cast<mode_t>(st.st_mode & 07777)});
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string path = joinPath(dir, entry.path().filename().string());
    if (shadows.count(path)) continue;
    MountStep step;
    step.target = path;
    if (entry.is_symlink(ec)) {
      step.kind = MountStep::Kind::Symlink;
      step.source = fs::read_symlink(entry.path(), ec).string();
    } else {
      step.kind = MountStep::Kind::Entry;
      step.directory = entry.is_directory(ec);
    }
    out.push_back(std::move(step));
  }
}

}  // namespace

std::vector<MountStep> planMounts(const ContainerSandbox& sandbox) {
  std::vector<Mount> mounts;
  if (!sandbox.hostsFile.empty()) mounts.push_back({sandbox.hostsFile, "/etc/hosts", true});
  if (!sandbox.hostnameFile.empty()) mounts.push_back({sandbox.hostnameFile, "/etc/hostname", true});
  const auto fixed = static_cast<std::ptrdiff_t>(mounts.size());
  mounts.insert(mounts.end(), sandbox.mounts.begin(), sandbox.mounts.end());
  std::stable_sort(mounts.begin() + fixed, mounts.end(),
                   [](const Mount& a, const Mount& b) { return depth(a.target) < depth(b.target); });

  std::vector<MountStep> steps;
  const std::set<std::string> shadows = shadowsFor(mounts);
  for (const auto& dir : shadows) shadow(dir, shadows, steps);  // std::set order: parents first
  for (size_t i = 0; i < mounts.size(); ++i) {
    MountStep step{MountStep::Kind::Bind, mounts[i].source, mounts[i].target};
    step.directory = isDirectory(mounts[i].source);
    step.readOnly = mounts[i].readOnly;
    step.createTarget = !existsOnHost(mounts[i].target) || coveredByEarlier(mounts, i);
    steps.push_back(std::move(step));
  }
  return steps;
}

}  // namespace jobhost::local
