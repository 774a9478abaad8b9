// Request: one unit of work for a job's worker (Volcano's apis.Request), its hash and job key,
// and the FNV-1 32-bit hash that routes a job to one worker.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "host/common/object_key.h"

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

  std::string jobKey() const {
    std::string key;
    key.reserve(namespace_.size() + 1 + jobName.size());
    return key.append(namespace_).append(1, '/').append(jobName);
  }
  friend bool operator==(const Request&, const Request&) = default;
};

struct RequestHash {
  size_t operator()(const Request& r) const;
};

/// Go's hash/fnv New32 (FNV-1, not FNV-1a) over the bytes of `text`; pass a previous result as
/// `hash` to continue it over more bytes.
inline uint32_t fnv1Hash32(std::string_view text, uint32_t hash = 2166136261u) {
  for (unsigned char c : text) {
    hash *= 16777619u;
    hash ^= c;
  }
  return hash;
}

/// fnv1Hash32 of the job key "ns/name" without building the key: what routes a job to its worker.
inline uint32_t jobKeyHash(std::string_view ns, std::string_view name) {
  return fnv1Hash32(name, fnv1Hash32("/", fnv1Hash32(ns)));
}
inline uint32_t jobKeyHash(const Request& r) { return jobKeyHash(r.namespace_, r.jobName); }

/// "namespace/name", the key of the job cache and of worker routing.
inline std::string jobKeyOf(std::string_view ns, std::string_view name) { return objectKey(ns, name); }

}  // namespace jobhost
