// One `jobhost run` per job directory: an exclusive flock on <workDir>/<ns>/.run-<job>.lock, held
// for the life of the run, so a second run of the same job cannot wipe the first one's sandboxes.
#pragma once

#include <string>

#include "host/common/expected.h"

namespace jobhost::local {

class JobDirLock {
 public:
  /// Takes the lock without waiting; fails naming the lock file and the pid holding it.
  static Expected<JobDirLock> acquire(const std::string& workDir, const std::string& ns, const std::string& job);
  JobDirLock(JobDirLock&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
  JobDirLock& operator=(JobDirLock&&) = delete;
  JobDirLock(const JobDirLock&) = delete;
  ~JobDirLock();

 private:
  explicit JobDirLock(int fd) : fd_(fd) {}
  int fd_ = -1;
};

}  // namespace jobhost::local
