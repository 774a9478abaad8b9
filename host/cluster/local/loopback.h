// Loopback addresses for pods: each backend holds one 127.<n>.0.0/16 block (an flock in a
// machine-wide lock directory keeps concurrent jobhost processes apart) and gives every pod hostname of a job its own
// address from a counter, stable for the job's life (restarted pods keep theirs). Never 127.0.0.x.
#pragma once

#include <map>
#include <string>

#include "host/common/expected.h"

namespace jobhost::local {

class LoopbackAllocator {
 public:
  /// The machine-wide lock directory.
  static constexpr const char* kLockDir = "/tmp/jobhost-loopback";
  /// Takes the first free block 1..254, locked by <lockDir>/loopback-<n>.lock (dir created 1777).
  static Expected<LoopbackAllocator> open(const std::string& lockDir);
  /// A fixed block without a lock (tests).
  explicit LoopbackAllocator(int block) : block_(block) {}
  LoopbackAllocator(LoopbackAllocator&& other) noexcept;
  LoopbackAllocator& operator=(LoopbackAllocator&& other) noexcept;
  ~LoopbackAllocator();

  /// The address of `hostname` in job `jobKey`: the one it already has, else the next one.
  std::string assign(const std::string& jobKey, const std::string& hostname);
  /// The addresses of a job so far, by hostname.
  const std::map<std::string, std::string>& jobAddresses(const std::string& jobKey) const;
  /// Forgets a job (its addresses are not reused by this backend).
  void releaseJob(const std::string& jobKey) { jobs_.erase(jobKey); }
  int block() const { return block_; }

 private:
  int block_ = 0;
  int lockFd_ = -1;
  uint32_t next_ = 0;
  std::map<std::string, std::map<std::string, std::string>> jobs_;
};

}  // namespace jobhost::local
