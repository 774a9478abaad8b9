// volcano::createOrUpdateConfigMap: writes a missing or different ConfigMap, compares nothing while
// the stored version is the one it last found equal, and never memoises a compare raced by a write.
#include <gtest/gtest.h>

#include <jobhost/volcano.h>

namespace jobhost {
namespace {

/// One namespace of ConfigMaps, versioned like the host's backends (a new number per write), with
/// counts of compares and applies. `raceNextCompare` has another writer write during the next one.
class VersionedConfigMaps final : public ResourceClient {
 public:
  Status apply(const Components& objects) override {
    ++applies;
    for (const auto& cm : objects.configMaps) write(cm);
    return Status::ok();
  }
  Status remove(ObjectKind, const std::string& name) override {
    stored.erase(name);
    versions.erase(name);
    return Status::ok();
  }
  std::optional<ConfigMap> getConfigMap(const std::string& name) override {
    auto it = stored.find(name);
    return it == stored.end() ? std::nullopt : std::optional(it->second);
  }
  std::optional<Secret> getSecret(const std::string&) override { return std::nullopt; }
  bool exists(ObjectKind, const std::string& name) override { return stored.count(name) != 0; }
  bool hasConfigMapData(const std::string& name, const std::map<std::string, std::string>& data) override {
    ++compares;
    auto it = stored.find(name);
    const bool same = it != stored.end() && it->second.data == data;
    if (raceNextCompare && it != stored.end()) {
      raceNextCompare = false;
      write(it->second);
    }
    return same;
  }
  uint64_t configMapVersion(const std::string& name) override {
    auto it = versions.find(name);
    return !versioned || it == versions.end() ? 0 : it->second;
  }

  void write(const ConfigMap& cm) {
    stored[cm.metadata.name] = cm;
    versions[cm.metadata.name] = ++writes;
  }

  std::map<std::string, ConfigMap> stored;
  std::map<std::string, uint64_t> versions;
  uint64_t writes = 0;
  int compares = 0;
  int applies = 0;
  bool versioned = true;
  bool raceNextCompare = false;
};

Components hostsOf(std::map<std::string, std::string> data) {
  Components objects;
  ConfigMap& cm = objects.configMaps.emplace_back();
  cm.metadata.name = "x-svc";
  cm.data = std::move(data);
  return objects;
}

TEST(CreateOrUpdateConfigMap, WritesAMissingOrChangedOneAndComparesNothingWhileNobodyWrites) {
  VersionedConfigMaps client;
  const Components hosts = hostsOf({{"a", "1"}});
  uint64_t verified = 0;
  ASSERT_TRUE(volcano::createOrUpdateConfigMap(client, hosts, verified));  // missing: written
  EXPECT_EQ(client.applies, 1);
  EXPECT_EQ(verified, 0u);
  ASSERT_TRUE(volcano::createOrUpdateConfigMap(client, hosts, verified));  // found equal: memoised
  EXPECT_EQ(client.compares, 2);
  EXPECT_EQ(verified, client.versions.at("x-svc"));
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(volcano::createOrUpdateConfigMap(client, hosts, verified));
  EXPECT_EQ(client.compares, 2);
  EXPECT_EQ(client.applies, 1);

  client.write(hostsOf({{"a", "2"}}).configMaps[0]);  // changed behind the plugin: written back
  ASSERT_TRUE(volcano::createOrUpdateConfigMap(client, hosts, verified));
  EXPECT_EQ(client.compares, 3);
  EXPECT_EQ(client.applies, 2);
  EXPECT_EQ(client.stored.at("x-svc").data, hosts.configMaps[0].data);
  ASSERT_TRUE(client.remove(ObjectKind::ConfigMap, "x-svc"));  // deleted: written back
  ASSERT_TRUE(volcano::createOrUpdateConfigMap(client, hosts, verified));
  EXPECT_EQ(client.applies, 3);
  EXPECT_EQ(client.stored.at("x-svc").data, hosts.configMaps[0].data);
}

TEST(CreateOrUpdateConfigMap, ACompareRacedByAWriteIsNotMemoised) {
  VersionedConfigMaps client;
  const Components hosts = hostsOf({{"a", "1"}});
  client.write(hosts.configMaps[0]);
  uint64_t verified = 0;
  client.raceNextCompare = true;
  ASSERT_TRUE(volcano::createOrUpdateConfigMap(client, hosts, verified));
  EXPECT_EQ(verified, 0u);
  ASSERT_TRUE(volcano::createOrUpdateConfigMap(client, hosts, verified));
  EXPECT_EQ(client.compares, 2);
  EXPECT_EQ(verified, client.versions.at("x-svc"));
  EXPECT_EQ(client.applies, 0);
}

TEST(CreateOrUpdateConfigMap, AClientWithoutVersionsIsComparedEveryTime) {
  VersionedConfigMaps client;
  client.versioned = false;
  const Components hosts = hostsOf({{"a", "1"}});
  uint64_t verified = 0;
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(volcano::createOrUpdateConfigMap(client, hosts, verified));
  EXPECT_EQ(client.compares, 3);
  EXPECT_EQ(client.applies, 1);
  EXPECT_EQ(verified, 0u);
}

}  // namespace
}  // namespace jobhost
