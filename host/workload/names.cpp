// Object names derived from a job (pods, PodGroup, pod volumes, owner reference) and the job a
// PodGroup or pod names. Pure string work; the volume name hash is FNV-1a-64 rendered in base 36.
#include "host/workload/names.h"

#include <charconv>

namespace jobhost {

std::string podName(std::string_view job, std::string_view task, int32_t index) {
  char digits[16];
  auto [end, ec] = std::to_chars(digits, digits + sizeof digits, index);
  (void)ec;  // an int32 always fits in 16 characters
  std::string name;
  name.reserve(job.size() + task.size() + 2 + static_cast<size_t>(end - digits));
  name.append(job).push_back('-');
  name.append(task).push_back('-');
  name.append(digits, end);
  return name;
}

std::string podGroupName(const Job& job) {
  std::string name;
  name.reserve(job.metadata.name.size() + 1 + job.metadata.uid.size());
  name.append(job.metadata.name).push_back('-');
  name.append(job.metadata.uid);
  return name;
}

std::string generatedClaimName(const Job& job, uint64_t seq) {
  static constexpr char kAlphabet[] = "0123456789abcdefghijklmnopqrstuvwxyz";
  uint64_t x = 1469598103934665603ULL ^ seq;
  for (unsigned char c : job.metadata.uid) x = (x ^ c) * 1099511628211ULL;
  std::string name = job.metadata.name + "-pvc-";
  for (int i = 0; i < 12; ++i) {  // splitmix64 steps over the seeded state
    x += 0x9e3779b97f4a7c15ULL;
    uint64_t z = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    name += kAlphabet[(z ^ (z >> 31)) % 36];
  }
  return name;
}

std::string jobVolumeName(const Job& job, std::string_view claimName) {
  uint64_t h = 14695981039346656037ull;
  auto mix = [&h](std::string_view s) {
    for (unsigned char c : s) {
      h ^= c;
      h *= 1099511628211ull;
    }
  };
  mix(job.metadata.uid);
  mix(std::string_view("\0", 1));  // separator: ("ab","c") and ("a","bc") hash differently
  mix(claimName);
  static constexpr char kAlphabet[] = "0123456789abcdefghijklmnopqrstuvwxyz";
  std::string name;
  name.reserve(job.metadata.name.size() + 13);
  name.append(job.metadata.name).push_back('-');
  for (int i = 0; i < 12; ++i) {
    name.push_back(kAlphabet[h % 36]);
    h /= 36;
  }
  return name;
}

const std::string& podGroupJobName(const PodGroup& pg) {
  const std::string* job = &pg.metadata.name;
  for (const auto& ref : pg.metadata.ownerReferences)
    if (ref.kind == "Job") job = &ref.name;
  return *job;
}

const std::string* podJobName(const Pod& pod) {
  static const std::string kJobNameKey(keys::JobName);  // a string: the lookup does not allocate
  const auto& ann = pod.metadata.annotations;
  auto it = ann.find(kJobNameKey);
  return it == ann.end() ? nullptr : &it->second;
}

}  // namespace jobhost
