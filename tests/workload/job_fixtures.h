// Test fixtures for admission and workload tests: small builders for jobs, tasks, containers and
// quantities, so each test states only what it is about.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "jobhost/job.h"

namespace jobhost::fixtures {

inline Quantity qty(std::string_view text) { return *Quantity::parse(text); }

inline ResourceList resources(std::initializer_list<std::pair<const char*, const char*>> items) {
  ResourceList out;
  for (const auto& [name, value] : items) out.emplace(name, qty(value));
  return out;
}

inline Container container(std::string name, std::string image = "busybox:1.36") {
  Container c;
  c.name = std::move(name);
  c.image = std::move(image);
  return c;
}

/// A task with one container named after it.
inline TaskSpec task(std::string name, int32_t replicas, std::optional<int32_t> minAvailable = std::nullopt) {
  TaskSpec t;
  t.template_.spec.containers.push_back(container(name.empty() ? "main" : name));
  t.name = std::move(name);
  t.replicas = replicas;
  t.minAvailable = minAvailable;
  t.maxRetry = 3;
  return t;
}

/// A defaulted job (queue default, schedulerName volcano, maxRetry 3) in namespace "ns" with uid
/// "uid-1"; minAvailable is the sum of the tasks' minAvailable-or-replicas.
inline Job job(std::string name, std::vector<TaskSpec> tasks) {
  Job j;
  j.metadata.name = std::move(name);
  j.metadata.namespace_ = "ns";
  j.metadata.uid = "uid-1";
  j.spec.queue = "default";
  j.spec.schedulerName = "volcano";
  j.spec.maxRetry = 3;
  int64_t minAvailable = 0;  // summed wide, then wrapped like Go's int32, so huge replicas are no UB
  for (const auto& t : tasks) minAvailable += t.minAvailable.value_or(t.replicas);
  j.spec.minAvailable = static_cast<int32_t>(static_cast<uint32_t>(minAvailable));
  j.spec.tasks = std::move(tasks);
  return j;
}

inline LifecyclePolicy eventPolicy(std::string event, std::string action) {
  LifecyclePolicy p;
  p.event = std::move(event);
  p.action = std::move(action);
  return p;
}

inline LifecyclePolicy exitCodePolicy(int32_t code, std::string action) {
  LifecyclePolicy p;
  p.exitCode = code;
  p.action = std::move(action);
  return p;
}

}  // namespace jobhost::fixtures
