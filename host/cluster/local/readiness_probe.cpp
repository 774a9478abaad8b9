// Readiness probe parsing and the periodic prober (see readiness_probe.h). Exec probes are child
// processes waited on through their pidfd; a probe past its timeout is killed and counts as failed.
#include "host/cluster/local/readiness_probe.h"

#include <signal.h>
#include <unistd.h>

#include <rapidjson/document.h>

#include "host/cluster/local/process.h"

namespace jobhost::local {
namespace asio = boost::asio;

std::optional<ReadinessProbe> readinessProbeOf(const Container& container) {
  for (const auto& [key, json] : container.unknown) {
    if (key != "readinessProbe") continue;
    rapidjson::Document doc;
    doc.Parse(json.c_str());
    if (doc.HasParseError() || !doc.IsObject()) return std::nullopt;
    ReadinessProbe p;
    auto seconds = [&](const char* name, int& out, int min) {
      if (doc.HasMember(name) && doc[name].IsInt()) out = std::max(min, doc[name].GetInt()) * 1000;
    };
    auto count = [&](const char* name, int& out) {
      if (doc.HasMember(name) && doc[name].IsInt()) out = std::max(1, doc[name].GetInt());
    };
    seconds("initialDelaySeconds", p.initialDelayMs, 0);
    seconds("periodSeconds", p.periodMs, 1);
    seconds("timeoutSeconds", p.timeoutMs, 1);
    count("successThreshold", p.successThreshold);
    count("failureThreshold", p.failureThreshold);
    if (doc.HasMember("exec") && doc["exec"].IsObject() && doc["exec"].HasMember("command") &&
        doc["exec"]["command"].IsArray()) {
      for (const auto& a : doc["exec"]["command"].GetArray())
        if (a.IsString()) p.exec.push_back(a.GetString());
      if (!p.exec.empty()) return p;
    }
    if (doc.HasMember("tcpSocket") && doc["tcpSocket"].IsObject() && doc["tcpSocket"].HasMember("port") &&
        doc["tcpSocket"]["port"].IsInt()) {
      p.tcpPort = doc["tcpSocket"]["port"].GetInt();
      return p;
    }
    return std::nullopt;
  }
  return std::nullopt;
}

ReadinessProber::ReadinessProber(asio::io_context& io, ReadinessProbe probe, ProbeTarget target,
                                 std::function<void(bool)> onChange)
    : io_(io), probe_(std::move(probe)), target_(std::move(target)), onChange_(std::move(onChange)), timer_(io),
      deadline_(io) {}

void ReadinessProber::start() { schedule(probe_.initialDelayMs); }

void ReadinessProber::stop() {
  stopped_ = true;
  timer_.cancel();
  deadline_.cancel();
  if (probePid_ > 0) ::kill(-probePid_, SIGKILL);
  if (socket_) socket_->close();
}

void ReadinessProber::schedule(int delayMs) {
  timer_.expires_after(std::chrono::milliseconds(delayMs));
  timer_.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
    if (!ec && !self->stopped_) self->runOnce();
  });
}

void ReadinessProber::runOnce() {
  inFlight_ = true;
  deadline_.expires_after(std::chrono::milliseconds(probe_.timeoutMs));
  deadline_.async_wait([self = shared_from_this()](const boost::system::error_code& ec) {
    if (ec || !self->inFlight_) return;
    if (self->probePid_ > 0) ::kill(-self->probePid_, SIGKILL);  // the exit handler reports the failure
    if (self->socket_) self->socket_->close();
  });
  if (probe_.exec.empty())
    runTcp();
  else
    runExec();
}

void ReadinessProber::runExec() {
  SpawnRequest req;
  req.env = target_.env;
  if (target_.isolation == Isolation::Native) {
    // The init's root and working directory are the container's (--root, --wd without a value).
    req.argv = {"nsenter", "--target", std::to_string(target_.containerPid), "--mount", "--uts", "--pid",
                "--root",  "--wd",     "--"};
  } else if (target_.isolation == Isolation::Bwrap) {
    if (target_.containerPid <= 0) return finish(false);
    req.argv = {"nsenter", "--target", std::to_string(target_.containerPid), "--mount", "--uts", "--pid"};
    if (!target_.workingDir.empty()) req.argv.push_back("--wd=" + target_.workingDir);
    req.argv.push_back("--");
  } else {
    req.workingDir = target_.workingDir;
  }
  req.argv.insert(req.argv.end(), probe_.exec.begin(), probe_.exec.end());
  auto spawned = spawnProcess(req);
  if (!spawned) return finish(false);
  probePid_ = spawned->pid;
  exited_ = std::make_unique<asio::posix::stream_descriptor>(io_, spawned->pidfd);
  exited_->async_wait(asio::posix::stream_descriptor::wait_read,
                      [self = shared_from_this()](const boost::system::error_code&) {
                        const ExitInfo exit = reapProcess(self->probePid_);
                        self->probePid_ = -1;
                        self->exited_.reset();
                        self->finish(exit.exitCode == 0);
                      });
}

void ReadinessProber::runTcp() {
  boost::system::error_code ec;
  const auto address = asio::ip::make_address(target_.podIP, ec);
  if (ec) return finish(false);
  socket_ = std::make_unique<asio::ip::tcp::socket>(io_);
  socket_->async_connect(asio::ip::tcp::endpoint(address, static_cast<unsigned short>(probe_.tcpPort)),
                         [self = shared_from_this()](const boost::system::error_code& result) {
                           self->socket_.reset();
                           self->finish(!result);
                         });
}

void ReadinessProber::finish(bool success) {
  inFlight_ = false;
  deadline_.cancel();
  if (stopped_) return;
  if (success) {
    failures_ = 0;
    if (++successes_ >= probe_.successThreshold && !ready_) {
      ready_ = true;
      onChange_(true);
    }
  } else {
    successes_ = 0;
    if (++failures_ >= probe_.failureThreshold && ready_) {
      ready_ = false;
      onChange_(false);
    }
  }
  schedule(probe_.periodMs);
}

}  // namespace jobhost::local
