// Conformance audit of the shipped plugins against spec/volcano-job-controller.md §7.3–§7.5: rules the
// per-plugin tests did not pin down (svc delete order and OnJobUpdate, pytorch RANK errors).
#include <gtest/gtest.h>

#include <jobhost/testing/testing.h>

namespace jobhost::testing {
namespace {

using Strings = std::vector<std::string>;

// A ResourceClient over a FakeResourceClient whose removes of one kind fail.
class FailingRemoves final : public ResourceClient {
 public:
  FailingRemoves(FakeResourceClient& inner, ObjectKind failing) : inner_(inner), failing_(failing) {}
  Status apply(const Components& objects) override { return inner_.apply(objects); }
  Status remove(ObjectKind kind, const std::string& name) override {
    if (kind == failing_) return Status::error("remove " + name + ": forbidden");
    return inner_.remove(kind, name);
  }
  std::optional<ConfigMap> getConfigMap(const std::string& name) override { return inner_.getConfigMap(name); }
  std::optional<Secret> getSecret(const std::string& name) override { return inner_.getSecret(name); }
  bool exists(ObjectKind kind, const std::string& name) override { return inner_.exists(kind, name); }

 private:
  FakeResourceClient& inner_;
  ObjectKind failing_;
};

class SvcAudit : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(h_.ok()) << h_.loadError(); }
  JobHooksPlugin& hooks() { return *h_.plugin("svc").jobHooks(); }
  /// OnJobAdd, then OnJobDelete against a client whose removes of `kind` fail; the add's calls are
  /// dropped from client_.calls.
  Status deleteAfterAdd(ObjectKind failing) {
    FakeJobContext add(job_, info_, client_, {});
    EXPECT_TRUE(hooks().onJobAdd(add));
    client_.calls.clear();
    FailingRemoves client(client_, failing);
    FakeJobContext ctx(job_, info_, client, {});
    return hooks().onJobDelete(ctx);
  }

  Harness h_{{shipped("svc")}};
  Job job_ = job("demo", {task("worker", 2)}, {{"svc", {}}});
  RuntimeInfo info_ = runtimeInfo(job_);
  FakeResourceClient client_;
};

// §7.3 OnJobDelete: delete the ConfigMap, delete the Service, remove the marker, then delete the
// NetworkPolicy. A failing NetworkPolicy delete is an error after the marker is already gone.
TEST_F(SvcAudit, JobDeleteRemovesTheMarkerBeforeTheNetworkPolicy) {
  EXPECT_FALSE(deleteAfterAdd(ObjectKind::NetworkPolicy));
  EXPECT_EQ(client_.calls, (Strings{"remove ConfigMap demo-svc", "remove Service demo"}));
  EXPECT_EQ(job_.status.controlledResources.count("plugin-svc"), 0u);
}

// §7.3 OnJobDelete: a failing Service delete stops before the marker is removed.
TEST_F(SvcAudit, JobDeleteKeepsTheMarkerWhenTheServiceDeleteFails) {
  EXPECT_FALSE(deleteAfterAdd(ObjectKind::Service));
  EXPECT_EQ(client_.calls, (Strings{"remove ConfigMap demo-svc"}));
  EXPECT_EQ(job_.status.controlledResources.at("plugin-svc"), "svc");
}

// §7.3 OnJobUpdate: regenerate the hosts and create or update the ConfigMap, with no marker check;
// it creates neither the Service nor the NetworkPolicy and sets no marker.
TEST_F(SvcAudit, JobUpdateWritesTheHostsConfigMapEvenWithoutTheMarker) {
  FakeJobContext ctx(job_, info_, client_, {});
  ASSERT_TRUE(hooks().onJobUpdate(ctx));
  EXPECT_EQ(client_.calls, (Strings{"apply ConfigMap demo-svc"}));
  EXPECT_EQ(client_.configMaps.at("demo-svc").data,
            (std::map<std::string, std::string>{{"worker.host", "demo-worker-0.demo\ndemo-worker-1.demo"},
                                                {"VC_WORKER_HOSTS", "demo-worker-0.demo,demo-worker-1.demo"},
                                                {"VC_WORKER_NUM", "2"}}));
  EXPECT_TRUE(job_.status.controlledResources.empty());
}

// §7.5 step 4: a worker's RANK is index + 1 with the index parsed from the pod-name suffix; Volcano
// returns the strconv.Atoi error when the suffix is not a number, and the pod is not created.
TEST(TorchAudit, WorkerPodWhoseNameSuffixIsNotANumberFailsPodCreate) {
  PluginSource torch = shipped("torch");
  torch.aliases = {"pytorch"};
  Harness h({torch});
  ASSERT_TRUE(h.ok()) << h.loadError();
  Job j = job("demo", {task("master", 1), task("worker", 2)}, {{"pytorch", {}}});
  const RuntimeInfo info = runtimeInfo(j);
  FakeResourceClient client;
  FakeJobContext ctx(j, info, client, {});
  Pod p = pod(j, "worker", 0);
  p.metadata.name = "demo-worker-x";
  EXPECT_FALSE(h.plugin("torch").jobHooks()->onPodCreate(ctx, p));

  Pod master = pod(j, "master", 0);
  master.metadata.name = "demo-master-x";  // the master's RANK is 0 whatever its name
  ASSERT_TRUE(h.plugin("torch").jobHooks()->onPodCreate(ctx, master));
  EXPECT_EQ(envList(master.spec.containers[0]),
            (Strings{"MASTER_ADDR=demo-master-0.demo", "MASTER_PORT=23456", "WORLD_SIZE=3", "RANK=0",
                     "PET_NNODES=3", "PET_NPROC_PER_NODE=1", "PET_NODE_RANK=0",
                     "PET_MASTER_ADDR=demo-master-0.demo", "PET_MASTER_PORT=23456"}));
}

}  // namespace
}  // namespace jobhost::testing
