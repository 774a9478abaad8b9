// Sandbox creation and volume materialisation (see sandbox.h). Files are written to a temporary
// name and renamed into place with their final mode; directories of Secret volumes are 0700.
#include "host/cluster/local/sandbox.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>

#include <rapidjson/document.h>

namespace fs = std::filesystem;

namespace jobhost::local {
namespace {

Status makeDirs(const std::string& path, mode_t mode) {
  std::error_code ec;
  fs::create_directories(path, ec);
  if (ec) return Status::error("cannot create " + path + ": " + ec.message());
  if (::chmod(path.c_str(), mode) != 0) return Status::error("cannot chmod " + path + ": " + std::strerror(errno));
  return Status::ok();
}

Status writeFileAtomically(const std::string& path, const std::string& content, mode_t mode) {
  const std::string tmp = path + ".jobhost-tmp";
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return Status::error("cannot write " + path + ": " + std::strerror(errno));
  bool ok = ::write(fd, content.data(), content.size()) == static_cast<ssize_t>(content.size()) &&
            ::fchmod(fd, mode) == 0;
  int err = errno;
  ::close(fd);
  if (!ok || ::rename(tmp.c_str(), path.c_str()) != 0) {
    if (ok) err = errno;
    ::unlink(tmp.c_str());
    return Status::error("cannot write " + path + ": " + std::strerror(err));
  }
  return Status::ok();
}

bool sameContent(const std::string& path, const std::string& content) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  std::string existing(content.size() + 1, '\0');
  const ssize_t n = ::read(fd, existing.data(), existing.size());
  ::close(fd);
  return n == static_cast<ssize_t>(content.size()) && existing.compare(0, content.size(), content) == 0;
}

bool safeRelative(const std::string& path) {
  if (path.empty() || path[0] == '/') return false;
  for (const auto& part : fs::path(path))
    if (part == "..") return false;
  return true;
}

// Writes `data` (all keys, or the items) into `dir`. What a volume of kind `kind` named `name`
// references must exist unless `optional`.
Status writeKeys(const std::string& dir, const std::map<std::string, std::string>* data,
                 const std::vector<KeyToPath>& items, std::optional<int32_t> defaultMode, bool optional,
                 bool secret, const std::string& what) {
  const mode_t dirMode = secret ? 0700 : 0755;
  if (Status st = makeDirs(dir, dirMode); !st) return st;
  if (!data) {
    if (optional) return Status::ok();
    return Status::error(what + " not found");
  }
  const mode_t fileMode = static_cast<mode_t>(defaultMode.value_or(secret ? 0600 : 0644)) & 07777;
  std::vector<std::pair<std::string, std::pair<const std::string*, mode_t>>> files;
  if (items.empty()) {
    for (const auto& [key, value] : *data) files.push_back({key, {&value, fileMode}});
  } else {
    for (const auto& item : items) {
      auto it = data->find(item.key);
      if (it == data->end()) {
        if (optional) continue;
        return Status::error(what + " has no key \"" + item.key + "\"");
      }
      const mode_t m = item.mode ? static_cast<mode_t>(*item.mode) & 07777 : fileMode;
      files.push_back({item.path, {&it->second, m}});
    }
  }
  for (const auto& [rel, content] : files) {
    if (!safeRelative(rel)) return Status::error(what + ": path \"" + rel + "\" must be relative without \"..\"");
    const fs::path target = fs::path(dir) / rel;
    if (Status st = makeDirs(target.parent_path().string(), dirMode); !st) return st;
    if (Status st = writeFileAtomically(target.string(), *content.first, content.second); !st) return st;
  }
  return Status::ok();
}

struct HostPath {
  std::string path;
  std::string type;  // "" (no check), DirectoryOrCreate, Directory, FileOrCreate, File, Socket, ...
};

std::optional<HostPath> hostPathOf(const Volume& volume) {
  for (const auto& [key, json] : volume.unknown) {
    if (key != "hostPath") continue;
    rapidjson::Document doc;
    doc.Parse(json.c_str());
    if (doc.HasParseError() || !doc.IsObject() || !doc.HasMember("path") || !doc["path"].IsString()) return std::nullopt;
    HostPath h{doc["path"].GetString(), ""};
    if (doc.HasMember("type") && doc["type"].IsString()) h.type = doc["type"].GetString();
    return h;
  }
  return std::nullopt;
}

// The kubelet's hostPath type check, which also makes what a ...OrCreate type asks for.
Status checkHostPath(const HostPath& h) {
  std::error_code ec;
  const fs::file_status st = fs::status(h.path, ec);
  const auto failed = [&](const char* what) {
    return Status::error("hostPath type check failed: " + h.path + " is not a " + what);
  };
  if (h.type.empty()) return Status::ok();
  if (h.type == "DirectoryOrCreate" && !fs::exists(st)) return makeDirs(h.path, 0755);
  if (h.type == "DirectoryOrCreate" || h.type == "Directory") return fs::is_directory(st) ? Status::ok() : failed("directory");
  if (h.type == "FileOrCreate" && !fs::exists(st)) {
    const int fd = ::open(h.path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) return Status::error("cannot create " + h.path + ": " + std::strerror(errno));
    ::close(fd);
    return Status::ok();
  }
  if (h.type == "FileOrCreate" || h.type == "File") return fs::is_regular_file(st) ? Status::ok() : failed("file");
  if (h.type == "Socket") return fs::is_socket(st) ? Status::ok() : failed("socket file");
  if (h.type == "CharDevice") return fs::is_character_file(st) ? Status::ok() : failed("character device");
  if (h.type == "BlockDevice") return fs::is_block_file(st) ? Status::ok() : failed("block device");
  return Status::error("hostPath type \"" + h.type + "\" is not one of DirectoryOrCreate, Directory, FileOrCreate, "
                       "File, Socket, CharDevice, BlockDevice");
}

Status writeVolume(const SandboxLayout& layout, const Volume& v, const ObjectLookup& objects) {
  const std::string dir = layout.volumeDir(v.name);
  if (v.configMap) {
    auto cm = objects.configMap(v.configMap->name);
    return writeKeys(dir, cm ? &cm->data : nullptr, v.configMap->items, v.configMap->defaultMode,
                     v.configMap->optional.value_or(false), false, "configmap \"" + v.configMap->name + "\"");
  }
  if (v.secret) {
    auto s = objects.secret(v.secret->secretName);
    return writeKeys(dir, s ? &s->data : nullptr, v.secret->items, v.secret->defaultMode,
                     v.secret->optional.value_or(false), true, "secret \"" + v.secret->secretName + "\"");
  }
  if (v.emptyDir) return makeDirs(dir, 0777);
  if (v.persistentVolumeClaim) return makeDirs(layout.pvcRoot + "/" + v.persistentVolumeClaim->claimName, 0777);
  if (auto hostPath = hostPathOf(v)) return checkHostPath(*hostPath);
  return Status::ok();
}

}  // namespace

Status prepareSandbox(const SandboxLayout& layout, const Pod& pod, const ObjectLookup& objects, bool hostnameFile) {
  std::error_code ec;
  fs::remove_all(layout.root + "/volumes", ec);
  if (ec) return Status::error("cannot clean " + layout.root + "/volumes: " + ec.message());
  if (Status st = makeDirs(layout.logsDir(), 0755); !st) return st;
  if (hostnameFile) {
    const std::string hostname = (pod.spec.hostname.empty() ? pod.metadata.name : pod.spec.hostname) + "\n";
    if (!sameContent(layout.hostnameFile(), hostname))  // a restarted pod keeps its file (and inode)
      if (Status st = writeFileAtomically(layout.hostnameFile(), hostname, 0644); !st) return st;
  }
  for (const auto& v : pod.spec.volumes)
    if (Status st = writeVolume(layout, v, objects); !st) return Status::error("volume \"" + v.name + "\": " + st.message());
  return Status::ok();
}

Status refreshVolumes(const SandboxLayout& layout, const Pod& pod, const std::string& kind, const std::string& name,
                      const ObjectLookup& objects) {
  for (const auto& v : pod.spec.volumes) {
    const bool uses = (kind == "ConfigMap" && v.configMap && v.configMap->name == name) ||
                      (kind == "Secret" && v.secret && v.secret->secretName == name);
    if (uses)
      if (Status st = writeVolume(layout, v, objects); !st) return Status::error("volume \"" + v.name + "\": " + st.message());
  }
  return Status::ok();
}

Expected<std::vector<Mount>> containerMounts(const SandboxLayout& layout, const Pod& pod, const Container& container) {
  using Result = Expected<std::vector<Mount>>;
  std::vector<Mount> mounts;
  for (const auto& m : container.volumeMounts) {
    const std::string where = "volumeMount \"" + m.name + "\" at \"" + m.mountPath + "\"";
    if (m.mountPath.empty() || m.mountPath[0] != '/') return Result::failure(where + ": mountPath must be absolute");
    const Volume* volume = nullptr;
    for (const auto& v : pod.spec.volumes)
      if (v.name == m.name) volume = &v;
    if (!volume) return Result::failure(where + ": the pod has no volume \"" + m.name + "\"");
    std::string source;
    bool readOnly = m.readOnly;
    if (volume->configMap || volume->secret) {
      source = layout.volumeDir(volume->name);
      readOnly = true;
    } else if (volume->emptyDir) {
      source = layout.volumeDir(volume->name);
    } else if (volume->persistentVolumeClaim) {
      source = layout.pvcRoot + "/" + volume->persistentVolumeClaim->claimName;
      readOnly = readOnly || volume->persistentVolumeClaim->readOnly;
    } else {
      if (!unsupportedVolumeType(*volume).empty())
        return Result::failure(where + ": volume type not supported by the local backend");
      source = hostPathOf(*volume)->path;
    }
    if (!m.subPath.empty()) {
      if (!safeRelative(m.subPath)) return Result::failure(where + ": subPath must be relative without \"..\"");
      source += "/" + m.subPath;
      std::error_code ec;
      if (!fs::exists(source, ec))
        if (Status st = makeDirs(source, 0755); !st) return Result::failure(where + ": " + st.message());
    }
    mounts.push_back(Mount{source, m.mountPath, readOnly});
  }
  return mounts;
}

std::string unsupportedVolumeType(const Volume& volume) {
  if (volume.configMap || volume.secret || volume.emptyDir || volume.persistentVolumeClaim) return "";
  if (const auto hostPath = hostPathOf(volume); hostPath && !hostPath->path.empty()) return "";
  for (const auto& [key, json] : volume.unknown)
    if (key != "hostPath") return key;
  return volume.unknown.empty() ? "(none)" : "hostPath";
}

}  // namespace jobhost::local
