// Test helpers for LocalBackend tests: a listener recording every cluster event (waiters wake on
// each batch), queries over the recorded pod states, shell containers and pods, file reading, and
// the host processes a pod's containers started.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <functional>
#include <mutex>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "host/cluster/backend.h"
#include "jobhost/job.h"

namespace jobhost::testing_local {

constexpr auto kPatience = std::chrono::seconds(90);

class Recorder final : public ClusterListener {
 public:
  void onClusterEvents(std::span<ClusterEvent> events) override {
    std::lock_guard lock(mutex_);
    for (const auto& e : events) events_.push_back(e);
    changed_.notify_all();
  }
  bool waitFor(const std::function<bool(const std::vector<ClusterEvent>&)>& done) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, kPatience, [&] { return done(events_); });
  }
  std::vector<ClusterEvent> events() {
    std::lock_guard lock(mutex_);
    return events_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<ClusterEvent> events_;
};

inline std::optional<PodState> lastState(const std::vector<ClusterEvent>& events, const std::string& pod) {
  std::optional<PodState> out;
  for (const auto& e : events)
    if (e.pod.object && e.pod.name() == pod && e.type != ClusterEvent::Type::PodGroupUpdated) out = e.pod;
  return out;
}

inline bool podIs(const std::vector<ClusterEvent>& events, const std::string& pod, PodPhase phase) {
  auto s = lastState(events, pod);
  return s && s->status.phase == phase;
}

inline bool deleted(const std::vector<ClusterEvent>& events, const std::string& pod) {
  for (const auto& e : events)
    if (e.type == ClusterEvent::Type::PodDeleted && e.pod.name() == pod) return true;
  return false;
}

/// The first container of the pod's last state is ready.
inline bool ready(const std::vector<ClusterEvent>& events, const std::string& pod) {
  auto s = lastState(events, pod);
  return s && !s->status.containerStatuses.empty() && s->status.containerStatuses[0].ready;
}

inline Container shell(const std::string& name, const std::string& script) {
  Container c;
  c.name = name;
  c.command = {"sh", "-c", script};
  return c;
}

/// A pod of job "tjob" in namespace "test" (subdomain "tjob").
inline Pod makePod(const std::string& name, std::vector<Container> containers, const std::string& restartPolicy = "Never",
                   const std::string& group = "") {
  Pod pod;
  pod.metadata.name = name;
  pod.metadata.namespace_ = "test";
  pod.metadata.annotations[std::string(keys::JobName)] = "tjob";
  if (!group.empty()) pod.metadata.annotations[std::string(keys::GroupName)] = group;
  pod.spec.containers = std::move(containers);
  pod.spec.restartPolicy = restartPolicy;
  pod.spec.subdomain = "tjob";
  return pod;
}

inline std::string readFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// Host processes whose environment names the pod directory `podDir` as their sandbox: every
/// process a container of that pod started, daemons included.
inline std::vector<pid_t> processesOf(const std::string& podDir) {
  std::vector<pid_t> out;
  const std::string marker = std::string("JOBHOST_SANDBOX=") + podDir + '\0';
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator("/proc", ec)) {
    const std::string name = e.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    if (readFile((e.path() / "environ").string()).find(marker) != std::string::npos) out.push_back(std::stoi(name));
  }
  return out;
}

}  // namespace jobhost::testing_local
