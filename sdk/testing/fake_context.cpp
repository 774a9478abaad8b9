// In-memory ResourceClient for plugin tests: create-or-update by name, delete with NotFound OK,
// and a log of every mutating call.
#include "jobhost/testing/fake_context.h"

namespace jobhost::testing {
namespace {

template <class T>
void store(std::map<std::string, T>& into, const std::vector<T>& objects, const char* kind,
           std::vector<std::string>& calls) {
  for (const auto& o : objects) {
    into[o.metadata.name] = o;
    calls.push_back(std::string("apply ") + kind + " " + o.metadata.name);
  }
}

}  // namespace

Status FakeResourceClient::apply(const Components& objects) {
  store(configMaps, objects.configMaps, "ConfigMap", calls);
  store(secrets, objects.secrets, "Secret", calls);
  store(services, objects.services, "Service", calls);
  store(networkPolicies, objects.networkPolicies, "NetworkPolicy", calls);
  return Status::ok();
}

Status FakeResourceClient::remove(ObjectKind kind, const std::string& name) {
  calls.push_back(std::string("remove ") + toString(kind) + " " + name);
  switch (kind) {
    case ObjectKind::ConfigMap: configMaps.erase(name); break;
    case ObjectKind::Secret: secrets.erase(name); break;
    case ObjectKind::Service: services.erase(name); break;
    case ObjectKind::NetworkPolicy: networkPolicies.erase(name); break;
  }
  return Status::ok();
}

std::optional<ConfigMap> FakeResourceClient::getConfigMap(const std::string& name) {
  if (auto it = configMaps.find(name); it != configMaps.end()) return it->second;
  return std::nullopt;
}

std::optional<Secret> FakeResourceClient::getSecret(const std::string& name) {
  if (auto it = secrets.find(name); it != secrets.end()) return it->second;
  return std::nullopt;
}

bool FakeResourceClient::hasConfigMapData(const std::string& name, const std::map<std::string, std::string>& data) {
  auto it = configMaps.find(name);
  return it != configMaps.end() && it->second.data == data;
}

bool FakeResourceClient::exists(ObjectKind kind, const std::string& name) {
  switch (kind) {
    case ObjectKind::ConfigMap: return configMaps.count(name) != 0;
    case ObjectKind::Secret: return secrets.count(name) != 0;
    case ObjectKind::Service: return services.count(name) != 0;
    case ObjectKind::NetworkPolicy: return networkPolicies.count(name) != 0;
  }
  return false;
}

}  // namespace jobhost::testing
