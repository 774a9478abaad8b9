// LocalBackend's records of pods and PodGroups, shared by its three source files
// (local_backend.cpp: pods and groups; local_scheduling.cpp: the loop; local_objects.cpp: objects).
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "host/cluster/local/local_backend.h"

namespace jobhost {

struct LocalBackend::PodEntry {
  PodState state;
  uint64_t seq = 0;
  std::string jobKey;    // "<ns>/<job>"
  std::string jobName;
  std::string groupKey;  // "<ns>/<podgroup>", or ""
  std::string task;      // its volcano.sh/task-spec annotation, or ""
  std::string address;   // loopback address
  local::Resources demand;
  local::PodSlot slot = local::PodSlot::Waiting;
  local::SandboxLayout layout;
  std::shared_ptr<local::PodRun> run;  // set once started; its members run on the loop only
};

struct LocalBackend::GroupEntry {
  PodGroup pg;
  local::GangGroup gang;
};

namespace local {

inline TimeMs wallClockMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

inline std::string objectKey(const std::string& ns, const std::string& name) { return ns + "/" + name; }

}  // namespace local
}  // namespace jobhost
