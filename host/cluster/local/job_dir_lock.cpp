// One `jobhost run` per job directory: the lock file holds the owner's pid for the refusal message;
// the kernel drops the flock when the owner exits, however it exits, so a stale file never blocks.
#include "host/cluster/local/job_dir_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <string>

#include "host/common/log.h"

namespace jobhost::local {

Expected<JobDirLock> JobDirLock::acquire(const std::string& workDir, const std::string& ns, const std::string& job) {
  const std::string dir = workDir + "/" + (ns.empty() ? "default" : ns);
  const std::string file = dir + "/.run-" + job + ".lock";
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  const int fd = ::open(file.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0)
    return Expected<JobDirLock>::failure(file + ": cannot create the job's lock file (" + std::strerror(errno) +
                                         "); check backend.local.workDir in the config");
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int err = errno;
    char owner[32] = {0};
    const ssize_t n = ::pread(fd, owner, sizeof owner - 1, 0);
    ::close(fd);
    if (err != EWOULDBLOCK)
      return Expected<JobDirLock>::failure(file + ": cannot lock (" + std::strerror(err) +
                                           "); point backend.local.workDir at a local filesystem");
    const std::string pid = n > 0 ? std::string(owner, static_cast<size_t>(n)) : "unknown";
    return Expected<JobDirLock>::failure(
        "job " + (ns.empty() ? "default" : ns) + "/" + job + " is already running on this machine (jobhost pid " +
        pid + ", lock " + file + "); wait for it to end, stop it, or give this job another name or namespace");
  }
  const std::string pid = std::to_string(::getpid());
  if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, pid.data(), pid.size(), 0) != static_cast<ssize_t>(pid.size()))
    log::get("local")->debug("{}: cannot record pid {} (the lock holds without it)", file, pid);
  return JobDirLock(fd);
}

JobDirLock::~JobDirLock() {
  if (fd_ >= 0) ::close(fd_);
}

}  // namespace jobhost::local
