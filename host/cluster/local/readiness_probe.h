// Readiness probes of local containers: the readinessProbe kept in Container::unknown (exec or
// tcpSocket, with Kubernetes' timing fields and defaults), run periodically on the backend's loop.
// An exec probe of an isolated container runs inside the container's namespaces (nsenter).
#pragma once

#include <sys/types.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/steady_timer.hpp>

#include "host/cluster/local/isolation.h"
#include "jobhost/pod.h"

namespace jobhost::local {

struct ReadinessProbe {
  std::vector<std::string> exec;  // exec.command
  int tcpPort = 0;                // tcpSocket.port (numeric)
  int initialDelayMs = 0;
  int periodMs = 10000;
  int timeoutMs = 1000;
  int successThreshold = 1;
  int failureThreshold = 3;
};

/// The container's readinessProbe, or nullopt when it has none (or one jobhost cannot run, e.g.
/// httpGet: such a container counts as ready once running).
std::optional<ReadinessProbe> readinessProbeOf(const Container& container);

/// Where a probe runs.
struct ProbeTarget {
  pid_t containerPid = -1;  // whose namespaces a probe enters (native: the container's init; bwrap: its
                            // namespace's init); without isolation, the container's process
  Isolation isolation = Isolation::None;
  std::vector<std::pair<std::string, std::string>> env;
  std::string workingDir;
  std::string podIP;
};

/// Runs one container's probe every period until stopped; reports readiness changes. Loop thread only.
class ReadinessProber : public std::enable_shared_from_this<ReadinessProber> {
 public:
  ReadinessProber(boost::asio::io_context& io, ReadinessProbe probe, ProbeTarget target,
                  std::function<void(bool ready)> onChange);
  void start();
  void stop();

 private:
  void schedule(int delayMs);
  void runOnce();
  void runExec();
  void runTcp();
  void finish(bool success);

  boost::asio::io_context& io_;
  ReadinessProbe probe_;
  ProbeTarget target_;
  std::function<void(bool)> onChange_;
  boost::asio::steady_timer timer_;
  boost::asio::steady_timer deadline_;
  std::unique_ptr<boost::asio::posix::stream_descriptor> exited_;
  std::unique_ptr<boost::asio::ip::tcp::socket> socket_;
  pid_t probePid_ = -1;
  bool stopped_ = false, ready_ = false, inFlight_ = false;
  int successes_ = 0, failures_ = 0;
};

}  // namespace jobhost::local
