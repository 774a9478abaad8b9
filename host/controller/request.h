// Request: one unit of work for a job's worker (Volcano's apis.Request), its hash and job key,
// and the FNV-1 32-bit hash that routes a job to one worker.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace jobhost {

struct Request {
  std::string namespace_;
  std::string jobName;
  std::string jobUid;
  std::string taskName;
  std::string podName;
  std::string podUid;
  std::string partitionId;
  std::string event;
  std::string action;
  int32_t exitCode = 0;
  int32_t jobVersion = 0;

  std::string jobKey() const { return namespace_ + "/" + jobName; }
  friend bool operator==(const Request&, const Request&) = default;
};

struct RequestHash {
  size_t operator()(const Request& r) const;
};

/// Go's hash/fnv New32 (FNV-1, not FNV-1a) over the bytes of `text`.
uint32_t fnv1Hash32(std::string_view text);

/// "namespace/name", the key of the job cache and of worker routing.
inline std::string jobKeyOf(std::string_view ns, std::string_view name) {
  std::string key;
  key.reserve(ns.size() + name.size() + 1);
  key.append(ns).append("/").append(name);
  return key;
}

}  // namespace jobhost
