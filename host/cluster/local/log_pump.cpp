// LogPump (see log_pump.h): one read at a time into a buffer; a drain cancels the pending read so
// its bytes are written first, then empties the pipe without blocking before it reports.
#include "host/cluster/local/log_pump.h"

#include <fcntl.h>
#include <unistd.h>

#include <boost/asio/post.hpp>
#include <cerrno>
#include <cstring>
#include <utility>

namespace jobhost::local {
namespace asio = boost::asio;

namespace {
constexpr size_t kBufferSize = 16 * 1024;
}

Expected<std::shared_ptr<LogPump>> LogPump::open(asio::io_context& io, const std::string& logFile) {
  using R = Expected<std::shared_ptr<LogPump>>;
  const int logFd = ::open(logFile.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (logFd < 0) return R::failure("cannot open " + logFile + ": " + std::strerror(errno));
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0 || ::fcntl(fds[0], F_SETFL, O_NONBLOCK) != 0) {
    const std::string error = std::string("cannot create the log pipe: ") + std::strerror(errno);
    ::close(logFd);
    return R::failure(error);
  }
  return std::shared_ptr<LogPump>(new LogPump(io, fds[0], fds[1], logFd));
}

LogPump::LogPump(asio::io_context& io, int readEnd, int writeEnd, int logFd)
    : pipe_(io, readEnd), writeEnd_(writeEnd), logFd_(logFd) {}

LogPump::~LogPump() {
  if (writeEnd_ >= 0) ::close(writeEnd_);
  if (logFd_ >= 0) ::close(logFd_);
}

void LogPump::start() {
  ::close(writeEnd_);
  writeEnd_ = -1;
  buffer_.resize(kBufferSize);
  readMore();
}

void LogPump::readMore() {
  reading_ = true;
  pipe_.async_read_some(asio::buffer(buffer_),
                        [self = shared_from_this()](const boost::system::error_code& ec, size_t n) {
                          self->reading_ = false;
                          self->append(self->buffer_.data(), n);
                          bool open = !ec || ec == asio::error::operation_aborted;
                          if (self->drained_) {
                            open = open && self->copyAvailable();
                            std::exchange(self->drained_, nullptr)();
                          }
                          if (!open) return self->finish();
                          self->readMore();
                        });
}

void LogPump::drainThen(std::function<void()> done) {
  if (!reading_) {  // not started, or at end of file: nothing can be in the pipe
    asio::post(pipe_.get_executor(), std::move(done));
    return;
  }
  drained_ = std::move(done);
  pipe_.cancel();  // the pending read completes (with its bytes, if it has any) before anything else
}

bool LogPump::copyAvailable() {
  for (;;) {
    const ssize_t n = ::read(pipe_.native_handle(), buffer_.data(), buffer_.size());
    if (n > 0) {
      append(buffer_.data(), static_cast<size_t>(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    return n < 0 && errno == EAGAIN;
  }
}

void LogPump::append(const char* data, size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(logFd_, data, size);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // a full disk loses output, as it would under the kubelet
    data += n;
    size -= static_cast<size_t>(n);
  }
}

void LogPump::finish() {
  boost::system::error_code ignored;
  pipe_.close(ignored);
  buffer_.clear();
  buffer_.shrink_to_fit();
}

}  // namespace jobhost::local
