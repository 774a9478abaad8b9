// Object metadata shared by every Kubernetes-shaped value type, and the store for unmodelled fields.
// Plain value types: copyable, no hidden sharing, safe to pass across the plugin boundary.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace jobhost {

/// Milliseconds since the Unix epoch on the controller's clock (real or virtual).
using TimeMs = int64_t;

/// Fields of an input object that jobhost does not model, kept so the object round-trips:
/// (key, value as compact JSON text), in input order. Plugins may read them; the host writes them
/// back out unchanged when it serialises the object.
using UnknownFields = std::vector<std::pair<std::string, std::string>>;

using StringMap = std::map<std::string, std::string>;

struct OwnerReference {
  std::string apiVersion;
  std::string kind;
  std::string name;
  std::string uid;
  bool controller = false;
  bool blockOwnerDeletion = false;
  friend bool operator==(const OwnerReference&, const OwnerReference&) = default;
};

struct ObjectMeta {
  std::string name;
  std::string namespace_;
  std::string uid;
  std::string resourceVersion;
  StringMap labels;
  StringMap annotations;
  std::vector<OwnerReference> ownerReferences;
  std::optional<TimeMs> creationTimestamp;
  std::optional<TimeMs> deletionTimestamp;
  UnknownFields unknown;
  friend bool operator==(const ObjectMeta&, const ObjectMeta&) = default;
};

/// Label selector: only matchLabels is modelled; matchExpressions are kept in `unknown`.
struct LabelSelector {
  StringMap matchLabels;
  UnknownFields unknown;
  friend bool operator==(const LabelSelector&, const LabelSelector&) = default;
};

}  // namespace jobhost
