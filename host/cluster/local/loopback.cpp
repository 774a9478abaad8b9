// LoopbackAllocator (see loopback.h): the per-process address block and per-job assignment.
// Addresses run 127.<block>.0.1 .. 127.<block>.0.254, 127.<block>.1.1, ... (no .0, no .255).
#include "host/cluster/local/loopback.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace jobhost::local {

Expected<LoopbackAllocator> LoopbackAllocator::open(const std::string& lockDir) {
  if (::mkdir(lockDir.c_str(), 01777) == 0) ::chmod(lockDir.c_str(), 01777);  // shared by every user
  for (int block = 1; block <= 254; ++block) {
    const std::string path = lockDir + "/loopback-" + std::to_string(block) + ".lock";
    int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (fd < 0)
      return Expected<LoopbackAllocator>::failure("cannot open " + path + ": " + std::strerror(errno));
    ::fchmod(fd, 0666);
    if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
      LoopbackAllocator out(block);
      out.lockFd_ = fd;
      return out;
    }
    ::close(fd);
  }
  return Expected<LoopbackAllocator>::failure("every loopback block 127.1-254.x.x is held by another jobhost under " +
                                              lockDir);
}

LoopbackAllocator::LoopbackAllocator(LoopbackAllocator&& other) noexcept
    : block_(other.block_), lockFd_(std::exchange(other.lockFd_, -1)), next_(other.next_), jobs_(std::move(other.jobs_)) {}

LoopbackAllocator& LoopbackAllocator::operator=(LoopbackAllocator&& other) noexcept {
  if (this != &other) {
    if (lockFd_ >= 0) ::close(lockFd_);
    block_ = other.block_;
    lockFd_ = std::exchange(other.lockFd_, -1);
    next_ = other.next_;
    jobs_ = std::move(other.jobs_);
  }
  return *this;
}

LoopbackAllocator::~LoopbackAllocator() {
  if (lockFd_ >= 0) ::close(lockFd_);
}

std::string LoopbackAllocator::assign(const std::string& jobKey, const std::string& hostname) {
  auto& hosts = jobs_[jobKey];
  if (auto it = hosts.find(hostname); it != hosts.end()) return it->second;
  const uint32_t k = next_++ % (254u * 256u);
  std::string addr = "127." + std::to_string(block_) + "." + std::to_string(k / 254) + "." + std::to_string(1 + k % 254);
  hosts.emplace(hostname, addr);
  return addr;
}

const std::map<std::string, std::string>& LoopbackAllocator::jobAddresses(const std::string& jobKey) const {
  static const std::map<std::string, std::string> kNone;
  auto it = jobs_.find(jobKey);
  return it == jobs_.end() ? kNone : it->second;
}

}  // namespace jobhost::local
