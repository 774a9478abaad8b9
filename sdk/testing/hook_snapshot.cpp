// The item-by-item differences of two hook snapshots: controlledResources keys by value, objects
// of each kind by name and value.
#include "hook_snapshot.h"

#include <vector>

namespace jobhost::testing {
namespace {

using Diff = std::map<std::string, std::string>;

std::string valueOr(const std::map<std::string, std::string>& map, const std::string& key) {
  auto it = map.find(key);
  return it == map.end() ? "(unset)" : it->second;
}

template <class T>
const T* named(const std::vector<T>& objects, const std::string& name) {
  for (const auto& o : objects)
    if (o.metadata.name == name) return &o;
  return nullptr;
}

template <class T>
void diffObjects(const std::vector<T>& before, const std::vector<T>& after, const char* kind, Diff& out) {
  for (const auto& o : before) {
    const T* now = named(after, o.metadata.name);
    if (now == nullptr) out[std::string(kind) + " " + o.metadata.name] = "deleted";
    else if (!(*now == o)) out[std::string(kind) + " " + o.metadata.name] = "changed";
  }
  for (const auto& o : after)
    if (named(before, o.metadata.name) == nullptr) out[std::string(kind) + " " + o.metadata.name] = "created";
}

}  // namespace

Diff differences(const HookSnapshot& before, const HookSnapshot& after) {
  Diff out;
  auto key = [&](const std::string& k) {
    const std::string was = valueOr(before.controlled, k), now = valueOr(after.controlled, k);
    if (was != now) out["controlledResources[" + k + "]"] = was + " -> " + now;
  };
  for (const auto& [k, v] : before.controlled) key(k);
  for (const auto& [k, v] : after.controlled) key(k);
  diffObjects(before.objects.configMaps, after.objects.configMaps, "ConfigMap", out);
  diffObjects(before.objects.secrets, after.objects.secrets, "Secret", out);
  diffObjects(before.objects.services, after.objects.services, "Service", out);
  diffObjects(before.objects.networkPolicies, after.objects.networkPolicies, "NetworkPolicy", out);
  return out;
}

std::string describe(const Diff& diff) {
  std::string out;
  for (const auto& [item, what] : diff) out += (out.empty() ? "" : "; ") + item + ": " + what;
  return out;
}

}  // namespace jobhost::testing
