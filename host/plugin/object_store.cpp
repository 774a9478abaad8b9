// In-memory object store: apply is create-or-replace by kind and name, remove ignores NotFound,
// and a log of calls (kinds and names only, never Secret data) is kept for tests.
#include "host/plugin/object_store.h"

#include <algorithm>

namespace jobhost {
namespace {

template <class T>
void upsert(std::vector<T>& list, const T& object) {
  for (auto& existing : list)
    if (existing.metadata.name == object.metadata.name) return void(existing = object);
  list.push_back(object);
}

template <class T>
bool erase(std::vector<T>& list, const std::string& name) {
  auto it = std::find_if(list.begin(), list.end(), [&](const T& o) { return o.metadata.name == name; });
  if (it == list.end()) return false;
  list.erase(it);
  return true;
}

template <class T>
const T* find(const std::vector<T>& list, const std::string& name) {
  for (const auto& o : list)
    if (o.metadata.name == name) return &o;
  return nullptr;
}

}  // namespace

Status ObjectStore::apply(const Components& objects) {
  for (const auto& o : objects.configMaps) upsert(objects_.configMaps, o), calls_.push_back("apply ConfigMap " + o.metadata.name);
  for (const auto& o : objects.secrets) upsert(objects_.secrets, o), calls_.push_back("apply Secret " + o.metadata.name);
  for (const auto& o : objects.services) upsert(objects_.services, o), calls_.push_back("apply Service " + o.metadata.name);
  for (const auto& o : objects.networkPolicies)
    upsert(objects_.networkPolicies, o), calls_.push_back("apply NetworkPolicy " + o.metadata.name);
  return Status::ok();
}

Status ObjectStore::remove(ObjectKind kind, const std::string& name) {
  calls_.push_back(std::string("remove ") + toString(kind) + " " + name);
  switch (kind) {
    case ObjectKind::ConfigMap: erase(objects_.configMaps, name); break;
    case ObjectKind::Secret: erase(objects_.secrets, name); break;
    case ObjectKind::Service: erase(objects_.services, name); break;
    case ObjectKind::NetworkPolicy: erase(objects_.networkPolicies, name); break;
  }
  return Status::ok();
}

std::optional<ConfigMap> ObjectStore::getConfigMap(const std::string& name) {
  const auto* o = find(objects_.configMaps, name);
  return o ? std::optional(*o) : std::nullopt;
}

std::optional<Secret> ObjectStore::getSecret(const std::string& name) {
  const auto* o = find(objects_.secrets, name);
  return o ? std::optional(*o) : std::nullopt;
}

bool ObjectStore::hasConfigMapData(const std::string& name, const std::map<std::string, std::string>& data) {
  const auto* o = find(objects_.configMaps, name);
  return o != nullptr && o->data == data;
}

bool ObjectStore::exists(ObjectKind kind, const std::string& name) {
  switch (kind) {
    case ObjectKind::ConfigMap: return find(objects_.configMaps, name) != nullptr;
    case ObjectKind::Secret: return find(objects_.secrets, name) != nullptr;
    case ObjectKind::Service: return find(objects_.services, name) != nullptr;
    case ObjectKind::NetworkPolicy: return find(objects_.networkPolicies, name) != nullptr;
  }
  return false;
}

}  // namespace jobhost
