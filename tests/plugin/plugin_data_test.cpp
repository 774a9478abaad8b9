// What PluginJobPlugins gives hooks for one prepared job: one JobContext::pluginData slot per
// plugin, kept across the job's hook calls and pod batches and released on a new prepare or
// forget; and onPodCreate's controlledResources, a scratch copy that never reaches the job.
#include <gtest/gtest.h>

#include <set>

#include "host/plugin/loader.h"
#include "host/plugin/object_store.h"
#include "host/plugin/plugin_job_plugins.h"
#include "jobhost/job_cache.h"

namespace jobhost {
namespace {

struct Kept {
  std::string uid;
  PluginArgs args;
};

struct Observed {
  int made = 0;                     // how often jobCache had to make a Kept
  std::set<const Kept*> seen;       // every Kept a hook was handed
  std::weak_ptr<const Kept> last;  // the last one, to see it released
};
Observed g;

class KeepingPlugin final : public JobHooksPlugin {
 public:
  Status onJobAdd(JobContext& ctx) override { return use(ctx); }
  Status onPodCreate(JobContext& ctx, Pod&) override {
    ctx.controlledResources()["pod-scratch"] = "onPodCreate";
    return use(ctx);
  }
  Status onJobUpdate(JobContext& ctx) override { return use(ctx); }
  Status onJobDelete(JobContext& ctx) override { return use(ctx); }

 private:
  static Status use(JobContext& ctx) {
    auto kept = jobCache<Kept>(
        ctx, [&](const Kept& k) { return k.uid == ctx.job().metadata.uid && k.args == ctx.args(); },
        [&] {
          ++g.made;
          return Kept{ctx.job().metadata.uid, ctx.args()};
        });
    g.seen.insert(kept.get());
    g.last = kept;
    return Status::ok();
  }
};

const jobhost_plugin_descriptor* keepingEntry() { JOBHOST_PLUGIN_DESCRIPTOR_BODY(KeepingPlugin, "keeping", "0.0.0") }

class PluginData : public ::testing::Test {
 protected:
  void SetUp() override {
    g = Observed{};
    auto loaded = adoptPlugin(&keepingEntry);
    ASSERT_TRUE(loaded) << loaded.error();
    RegisteredPlugin r;
    r.entry.name = "keeping";
    r.entry.activation = Activation::Always;
    r.entry.callTimeout = Duration{0};
    r.names = {"keeping"};
    r.loaded = std::move(*loaded);
    std::vector<RegisteredPlugin> plugins;
    plugins.push_back(std::move(r));
    auto registry = Registry::fromLoaded(std::move(plugins), HostConfig{});
    ASSERT_TRUE(registry) << registry.error();
    plugins_ = std::make_unique<PluginJobPlugins>(*registry, std::map<std::string, int32_t>{});
    job_.metadata.name = "demo";
    job_.metadata.namespace_ = "team-a";
    job_.metadata.uid = "uid-1";
    TaskSpec task;
    task.name = "worker";
    task.replicas = 2;
    task.template_.spec.containers.resize(1);
    job_.spec.tasks.push_back(task);
    ASSERT_TRUE(plugins_->prepare(job_));
  }

  void everyHook() {
    ASSERT_TRUE(plugins_->onJobAdd(job_, store_));
    ASSERT_TRUE(plugins_->makePods(job_, {{0, 0}, {0, 1}}, false));
    ASSERT_TRUE(plugins_->onJobUpdate(job_, store_));
    ASSERT_TRUE(plugins_->onJobDelete(job_, store_));
  }

  std::unique_ptr<PluginJobPlugins> plugins_;
  Job job_;
  ObjectStore store_;
};

TEST_F(PluginData, OneSlotServesEveryHookOfAPreparedJob) {
  everyHook();
  everyHook();
  EXPECT_EQ(g.made, 1);
  EXPECT_EQ(g.seen.size(), 1u);
}

TEST_F(PluginData, ANewPrepareOrForgetReleasesTheSlot) {
  everyHook();
  ASSERT_TRUE(plugins_->prepare(job_));
  EXPECT_TRUE(g.last.expired());
  everyHook();
  EXPECT_EQ(g.made, 2);
  plugins_->forget(job_.metadata.uid);
  EXPECT_TRUE(g.last.expired());
}

TEST_F(PluginData, OnPodCreateWritesControlledResourcesOfAScratchCopyOnly) {
  job_.status.controlledResources = {{"plugin-keeping", "keeping"}};
  ASSERT_TRUE(plugins_->makePods(job_, {{0, 0}, {0, 1}}, false));
  EXPECT_EQ(job_.status.controlledResources, (std::map<std::string, std::string>{{"plugin-keeping", "keeping"}}));
}

}  // namespace
}  // namespace jobhost
