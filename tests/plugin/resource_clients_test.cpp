// The host's ResourceClients answer hasConfigMapData and configMapVersion from where they keep objects:
// the render ObjectStore, and BackendResourceClient over the sim backend (which owns what it applies).
#include <gtest/gtest.h>

#include "host/cluster/sim/sim_cluster.h"
#include "host/controller/backend_resource_client.h"
#include "host/controller/virtual_clock.h"
#include "host/plugin/object_store.h"
#include "host/workload/names.h"
#include "jobhost/volcano.h"

namespace jobhost {
namespace {

using Data = std::map<std::string, std::string>;

ConfigMap configMap(const std::string& name, Data data) {
  ConfigMap cm;
  cm.metadata.name = name;
  cm.data = std::move(data);
  return cm;
}

Components only(ConfigMap cm) {
  Components c;
  c.configMaps.push_back(std::move(cm));
  return c;
}

void expectComparesData(ResourceClient& client) {
  EXPECT_FALSE(client.hasConfigMapData("x-svc", {}));  // absent
  ASSERT_TRUE(client.apply(only(configMap("x-svc", {{"a", "1"}}))));
  EXPECT_TRUE(client.hasConfigMapData("x-svc", {{"a", "1"}}));
  EXPECT_FALSE(client.hasConfigMapData("x-svc", {{"a", "2"}}));
  EXPECT_FALSE(client.hasConfigMapData("x-svc", {{"a", "1"}, {"b", "1"}}));
  ASSERT_TRUE(client.remove(ObjectKind::ConfigMap, "x-svc"));
  EXPECT_FALSE(client.hasConfigMapData("x-svc", {{"a", "1"}}));
}

TEST(ResourceClients, ObjectStoreComparesConfigMapData) {
  ObjectStore store;
  expectComparesData(store);
}

/// A BackendResourceClient for job x (team-a, uid-1) over a fresh sim backend.
class BackendClient : public ::testing::Test {
 protected:
  BackendClient() {
    job.metadata.name = "x";
    job.metadata.namespace_ = "team-a";
    job.metadata.uid = "uid-1";
  }
  VirtualClock clock;
  SimCluster sim{clock, SimBackendConfig{}};
  Job job;
  BackendResourceClient client{sim, job};
};

TEST_F(BackendClient, ComparesConfigMapDataInTheBackend) {
  expectComparesData(client);
  EXPECT_FALSE(sim.hasConfigMapData("other-ns", "x-svc", {}));
}

// configMapVersion: a new number on every write (even of the same data), never reused after a
// delete, and 0 for a ConfigMap that is absent, removed, collected with its job or in another namespace.
TEST_F(BackendClient, ConfigMapVersionChangesOnEveryWriteAndIsZeroWhenAbsent) {
  EXPECT_EQ(client.configMapVersion("x-svc"), 0u);
  ASSERT_TRUE(client.apply(only(configMap("x-svc", {{"a", "1"}}))));
  const uint64_t first = client.configMapVersion("x-svc");
  EXPECT_NE(first, 0u);
  EXPECT_EQ(client.configMapVersion("x-svc"), first);  // reading changes nothing
  ASSERT_TRUE(client.apply(only(configMap("x-svc", {{"a", "1"}}))));
  const uint64_t second = client.configMapVersion("x-svc");
  EXPECT_GT(second, first);
  ASSERT_TRUE(client.apply(only(configMap("other", {}))));
  EXPECT_EQ(client.configMapVersion("x-svc"), second);  // another object's write leaves it alone
  EXPECT_EQ(sim.configMapVersion("other-ns", "x-svc"), 0u);
  ASSERT_TRUE(client.remove(ObjectKind::ConfigMap, "x-svc"));
  EXPECT_EQ(client.configMapVersion("x-svc"), 0u);
  ASSERT_TRUE(client.apply(only(configMap("x-svc", {{"a", "1"}}))));
  EXPECT_GT(client.configMapVersion("x-svc"), second);
  sim.deleteOwnedBy("team-a", "uid-1");
  EXPECT_EQ(client.configMapVersion("x-svc"), 0u);
  EXPECT_EQ(client.configMapVersion("other"), 0u);
}

TEST(ResourceClients, ObjectStoreKeepsNoConfigMapVersions) {
  ObjectStore store;
  ASSERT_TRUE(store.apply(only(configMap("x-svc", {{"a", "1"}}))));
  EXPECT_EQ(store.configMapVersion("x-svc"), 0u);
}

TEST_F(BackendClient, OwnsObjectsThatLackNamespaceOrOwnerAndKeepsThoseThatHaveThem) {
  ConfigMap owned = configMap("owned", {});
  owned.metadata.namespace_ = "team-a";
  owned.metadata.ownerReferences.push_back({"v1", "Other", "o", "uid-o", false, false});
  Components both = only(owned);
  both.configMaps.push_back(configMap("bare", {}));
  ASSERT_TRUE(client.apply(both));
  EXPECT_EQ(sim.getConfigMap("team-a", "owned")->metadata, owned.metadata);
  const ObjectMeta bare = sim.getConfigMap("team-a", "bare")->metadata;
  EXPECT_EQ(bare.namespace_, "team-a");
  EXPECT_EQ(bare.ownerReferences, std::vector<OwnerReference>{volcano::controllerRef(job)});
}

}  // namespace
}  // namespace jobhost
