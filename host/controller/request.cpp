// Request hashing for the work queue's dedup sets.
#include "host/controller/request.h"

namespace jobhost {

size_t RequestHash::operator()(const Request& r) const {
  // Enough fields to spread requests; equality compares them all.
  std::hash<std::string> h;
  size_t seed = h(r.podName.empty() ? r.jobName : r.podName);
  seed ^= h(r.event) + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2);
  return seed ^ (static_cast<size_t>(static_cast<uint32_t>(r.exitCode)) << 32 | static_cast<uint32_t>(r.jobVersion));
}

}  // namespace jobhost
