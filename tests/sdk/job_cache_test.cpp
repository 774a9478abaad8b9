// jobCache (job_cache.h) over a context's per-job slot, and ResourceClient::hasConfigMapData's
// default body for clients that do not override it.
#include "jobhost/job_cache.h"

#include <gtest/gtest.h>

#include <stdexcept>

namespace jobhost {
namespace {

/// A JobContext whose only service is its pluginData slot (or none).
class SlotContext final : public JobContext {
 public:
  explicit SlotContext(bool hasSlot) : hasSlot_(hasSlot), info_(job_) {}
  const Job& job() const override { return job_; }
  std::map<std::string, std::string>& controlledResources() override { return job_.status.controlledResources; }
  const PluginArgs& args() const override { return args_; }
  const Components& built() const override { return built_; }
  const RuntimeInfo& runtimeInfo() const override { return info_; }
  ResourceClient& resources() override { throw std::logic_error("no resources"); }
  void setEnv(Container& c, EnvVar v) override { upsertEnv(c.env, std::move(v)); }
  std::shared_ptr<void>* pluginData() override { return hasSlot_ ? &slot : nullptr; }

  Job job_;
  std::shared_ptr<void> slot;

 private:
  bool hasSlot_;
  PluginArgs args_;
  Components built_;
  RuntimeInfo info_;
};

struct Derived {
  std::string from;  // what it was derived from: the job's name
};

std::shared_ptr<const Derived> derived(JobContext& ctx, int& made) {
  return jobCache<Derived>(
      ctx, [&](const Derived& d) { return d.from == ctx.job().metadata.name; },
      [&] {
        ++made;
        return Derived{ctx.job().metadata.name};
      });
}

TEST(JobCache, KeepsTheEntryInTheSlotWhileItIsCurrent) {
  SlotContext ctx(true);
  ctx.job_.metadata.name = "a";
  int made = 0;
  const auto first = derived(ctx, made);
  EXPECT_EQ(derived(ctx, made), first);  // the same object, not an equal one
  EXPECT_EQ(made, 1);
  EXPECT_EQ(ctx.slot, std::static_pointer_cast<const void>(first));
}

TEST(JobCache, RebuildsAStaleEntryAndKeepsTheNewOne) {
  SlotContext ctx(true);
  ctx.job_.metadata.name = "a";
  int made = 0;
  const auto first = derived(ctx, made);
  ctx.job_.metadata.name = "b";
  const auto second = derived(ctx, made);
  EXPECT_EQ(second->from, "b");
  EXPECT_EQ(first->from, "a");  // a holder of the old entry keeps it
  EXPECT_EQ(derived(ctx, made), second);
  EXPECT_EQ(made, 2);
}

TEST(JobCache, WithoutASlotEveryCallDerivesAgain) {
  SlotContext ctx(false);
  ctx.job_.metadata.name = "a";
  int made = 0;
  EXPECT_EQ(derived(ctx, made)->from, "a");
  EXPECT_EQ(derived(ctx, made)->from, "a");
  EXPECT_EQ(made, 2);
}

TEST(JobCache, TheDefaultContextHasNoSlot) {
  struct Plain final : JobContext {
    Job j;
    std::map<std::string, std::string> m;
    PluginArgs a;
    Components c;
    RuntimeInfo i{j};
    const Job& job() const override { return j; }
    std::map<std::string, std::string>& controlledResources() override { return m; }
    const PluginArgs& args() const override { return a; }
    const Components& built() const override { return c; }
    const RuntimeInfo& runtimeInfo() const override { return i; }
    ResourceClient& resources() override { throw std::logic_error("no resources"); }
    void setEnv(Container&, EnvVar) override {}
  } plain;
  EXPECT_EQ(plain.pluginData(), nullptr);
}

/// A ResourceClient that keeps one ConfigMap and counts reads, without its own hasConfigMapData.
class OneConfigMap final : public ResourceClient {
 public:
  Status apply(const Components&) override { return Status::ok(); }
  Status remove(ObjectKind, const std::string&) override { return Status::ok(); }
  std::optional<ConfigMap> getConfigMap(const std::string& name) override {
    ++reads;
    return name == cm.metadata.name ? std::optional(cm) : std::nullopt;
  }
  std::optional<Secret> getSecret(const std::string&) override { return std::nullopt; }
  bool exists(ObjectKind, const std::string&) override { return false; }

  ConfigMap cm;
  int reads = 0;
};

TEST(ResourceClient, HasConfigMapDataDefaultsToComparingAGetConfigMapCopy) {
  OneConfigMap client;
  client.cm.metadata.name = "x-svc";
  client.cm.data = {{"k", "v"}};
  ResourceClient& rc = client;
  EXPECT_TRUE(rc.hasConfigMapData("x-svc", {{"k", "v"}}));
  EXPECT_FALSE(rc.hasConfigMapData("x-svc", {{"k", "w"}}));
  EXPECT_FALSE(rc.hasConfigMapData("x-svc", {}));
  EXPECT_FALSE(rc.hasConfigMapData("other", {{"k", "v"}}));
  EXPECT_EQ(client.reads, 4);
}

}  // namespace
}  // namespace jobhost
