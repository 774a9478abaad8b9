// Request hashing (for the work queue's dedup sets) and Go-compatible FNV-1 32-bit.
#include "host/controller/request.h"

namespace jobhost {

uint32_t fnv1Hash32(std::string_view text, uint32_t hash) {
  for (unsigned char c : text) {
    hash *= 16777619u;
    hash ^= c;
  }
  return hash;
}

size_t RequestHash::operator()(const Request& r) const {
  std::hash<std::string> h;
  size_t seed = h(r.jobName);
  auto mix = [&seed](size_t v) { seed ^= v + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2); };
  mix(h(r.namespace_));
  mix(h(r.podName));
  mix(h(r.event));
  mix(h(r.action));
  mix(h(r.podUid));
  mix(static_cast<size_t>(r.exitCode) * 31u + static_cast<size_t>(r.jobVersion));
  return seed;
}

}  // namespace jobhost
