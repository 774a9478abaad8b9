// Object keys "<namespace>/<name>": maps keyed by the joined string that are searched with the two
// parts (ObjectRef), so a lookup builds no string. Both hash the same bytes the same way.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace jobhost {

/// A namespace and a name, not joined.
struct ObjectRef {
  std::string_view ns;
  std::string_view name;
};

/// "<ns>/<name>".
inline std::string objectKey(std::string_view ns, std::string_view name) {
  std::string key;
  key.reserve(ns.size() + 1 + name.size());
  return key.append(ns).append(1, '/').append(name);
}

/// Transparent hash and equality for maps keyed by objectKey() strings.
struct ObjectKeyHash {
  using is_transparent = void;
  static uint64_t mix(uint64_t h, std::string_view bytes) {
    for (unsigned char c : bytes) h = (h ^ c) * 1099511628211ULL;  // FNV-1a 64
    return h;
  }
  size_t operator()(std::string_view key) const { return mix(14695981039346656037ULL, key); }
  size_t operator()(const std::string& key) const { return (*this)(std::string_view(key)); }
  size_t operator()(const ObjectRef& ref) const { return mix(mix(mix(14695981039346656037ULL, ref.ns), "/"), ref.name); }
};

struct ObjectKeyEqual {
  using is_transparent = void;
  bool operator()(std::string_view a, std::string_view b) const { return a == b; }
  bool operator()(const ObjectRef& a, std::string_view b) const {
    return b.size() == a.ns.size() + 1 + a.name.size() && b.substr(0, a.ns.size()) == a.ns && b[a.ns.size()] == '/' &&
           b.substr(a.ns.size() + 1) == a.name;
  }
  bool operator()(std::string_view a, const ObjectRef& b) const { return (*this)(b, a); }
};

}  // namespace jobhost
