// The host's ResourceClients answer hasConfigMapData from where they keep objects: the render
// ObjectStore, and BackendResourceClient over the sim backend (which also owns what it applies).
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
