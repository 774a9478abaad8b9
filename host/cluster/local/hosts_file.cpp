// Host names of pods and Services and the append-only per-job hosts file (see hosts_file.h).
// Appends are single O_APPEND writes, so a reader never sees a rewritten line.
#include "host/cluster/local/hosts_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace jobhost::local {
namespace {

Status appendText(const std::string& path, const std::string& text, bool truncate) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | (truncate ? O_TRUNC : O_APPEND), 0644);
  if (fd < 0) return Status::error("cannot write " + path + ": " + std::strerror(errno));
  ssize_t n = ::write(fd, text.data(), text.size());
  int err = errno;
  ::close(fd);
  if (n != static_cast<ssize_t>(text.size()))
    return Status::error("cannot write " + path + ": " + std::strerror(n < 0 ? err : EIO));
  return Status::ok();
}

}  // namespace

std::string podHostname(const Pod& pod) {
  return pod.spec.hostname.empty() ? pod.metadata.name : pod.spec.hostname;
}

std::vector<std::string> podHostNames(const Pod& pod) {
  const std::string host = podHostname(pod);
  std::vector<std::string> names{host};
  if (!pod.spec.subdomain.empty()) {
    const std::string fq = host + "." + pod.spec.subdomain;
    names.push_back(fq);
    names.push_back(fq + "." + pod.metadata.namespace_ + ".svc");
    names.push_back(fq + "." + pod.metadata.namespace_ + ".svc.cluster.local");
  }
  return names;
}

std::vector<std::string> serviceHostNames(const Service& service) {
  const std::string& n = service.metadata.name;
  const std::string& ns = service.metadata.namespace_;
  return {n, n + "." + ns, n + "." + ns + ".svc", n + "." + ns + ".svc.cluster.local"};
}

bool selects(const Service& service, const Pod& pod) {
  if (service.spec.selector.empty() || service.metadata.namespace_ != pod.metadata.namespace_) return false;
  for (const auto& [k, v] : service.spec.selector) {
    auto it = pod.metadata.labels.find(k);
    if (it == pod.metadata.labels.end() || it->second != v) return false;
  }
  return true;
}

Expected<HostsFile> HostsFile::create(const std::string& path) {
  const std::string header =
      "# written by jobhost: the pods of this job and their loopback addresses\n"
      "127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n";
  if (Status st = appendText(path, header, true); !st) return Expected<HostsFile>::failure(st.message());
  HostsFile out;
  out.path_ = path;
  return out;
}

Status HostsFile::add(const std::string& address, const std::vector<std::string>& names) {
  std::string line = address;
  for (const auto& n : names) line += "\t" + n;
  line += "\n";
  if (lines_.count(line)) return Status::ok();
  if (Status st = appendText(path_, line, false); !st) return st;
  lines_.insert(std::move(line));
  return Status::ok();
}

}  // namespace jobhost::local
