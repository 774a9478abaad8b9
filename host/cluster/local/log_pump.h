// LogPump: a container's stdout and stderr as one pipe that the backend loop appends to its log
// file, so a command that reopens /dev/stdout or /dev/stderr appends there, as under the kubelet.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "host/common/expected.h"

namespace jobhost::local {

class LogPump : public std::enable_shared_from_this<LogPump> {
 public:
  /// A pipe whose output is appended to `logFile` (created if missing); used on `io`'s thread only.
  static Expected<std::shared_ptr<LogPump>> open(boost::asio::io_context& io, const std::string& logFile);
  ~LogPump();

  /// The pipe's write end, for the container's descriptors 1 and 2 while it starts.
  int writeEnd() const { return writeEnd_; }
  /// Closes the write end (the container has started, or failed to) and copies output as it
  /// arrives, until every writer has closed the pipe.
  void start();
  /// Calls `done` once everything written to the pipe so far is in the log: for a container that
  /// has exited, its whole output. Copying goes on afterwards while a leftover writer lives.
  void drainThen(std::function<void()> done);

 private:
  LogPump(boost::asio::io_context& io, int readEnd, int writeEnd, int logFd);
  void readMore();
  void append(const char* data, size_t size);
  bool copyAvailable();  // what the pipe holds now; false at end of file
  void finish();

  boost::asio::posix::stream_descriptor pipe_;
  int writeEnd_;
  int logFd_;
  std::vector<char> buffer_;
  bool reading_ = false;
  std::function<void()> drained_;
};

}  // namespace jobhost::local
