// The SDK exception barrier: a plugin that throws from every extension point (std::exception and
// non-standard values) yields Status errors naming the call; nothing reaches the host.
#include <gtest/gtest.h>

#include "host/plugin/loader.h"

namespace jobhost {
namespace {

class FakeContext : public JobContext {
 public:
  explicit FakeContext(PluginArgs args) : args_(std::move(args)), info_(job_) {}
  const Job& job() const override { return job_; }
  std::map<std::string, std::string>& controlledResources() override { return job_.status.controlledResources; }
  const PluginArgs& args() const override { return args_; }
  const Components& built() const override { return built_; }
  const RuntimeInfo& runtimeInfo() const override { return info_; }
  ResourceClient& resources() override { std::abort(); }
  void setEnv(Container& c, EnvVar v) override { upsertEnv(c.env, std::move(v)); }

 private:
  Job job_;
  PluginArgs args_;
  Components built_;
  RuntimeInfo info_;
};

std::shared_ptr<PluginInstance> throwing() {
  auto p = loadPlugin(LoadRequest{"throwing", "", "", {JOBHOST_FIXTURE_DIR}, {}});
  EXPECT_TRUE(p) << p.error();
  return p->instance;
}

TEST(Barrier, StandardExceptionsBecomeErrorsNamingTheCall) {
  auto p = throwing();
  Job job;
  RuntimeInfo info(job);
  ValidationResult vr;
  Components out;
  JobStatus st;
  FakeContext ctx({});
  Pod pod;
  EXPECT_EQ(p->validation()->validate(job, nullptr, {}, vr).message(),
            "Validate threw an exception: fixture failure in validate");
  EXPECT_EQ(p->mlPolicy()->enforceMLPolicy(info, {}).message(),
            "EnforceMLPolicy threw an exception: fixture failure in ml");
  EXPECT_EQ(p->podGroupPolicy()->enforcePodGroupPolicy(info, {}).message(),
            "EnforcePodGroupPolicy threw an exception: fixture failure in podgroup");
  EXPECT_EQ(p->podNetwork()->identifyPodNetwork(info, {}).message(),
            "IdentifyPodNetwork threw an exception: fixture failure in network");
  EXPECT_EQ(p->componentBuild()->build(info, {}, out).message(), "Build threw an exception: fixture failure in build");
  EXPECT_EQ(p->status()->updateStatus(job, st).message(),
            "UpdateStatus threw an exception: fixture failure in status");
  EXPECT_EQ(p->jobHooks()->onJobAdd(ctx).message(), "OnJobAdd threw an exception: fixture failure in add");
  EXPECT_EQ(p->jobHooks()->onPodCreate(ctx, pod).message(), "OnPodCreate threw an exception: fixture failure in pod");
  EXPECT_EQ(p->jobHooks()->onJobUpdate(ctx).message(), "OnJobUpdate threw an exception: fixture failure in update");
  EXPECT_EQ(p->jobHooks()->onJobDelete(ctx).message(), "OnJobDelete threw an exception: fixture failure in delete");
}

TEST(Barrier, NonStandardExceptionsAreContainedToo) {
  auto p = throwing();
  Job job;
  RuntimeInfo info(job);
  FakeContext ctx({"--int"});
  EXPECT_EQ(p->mlPolicy()->enforceMLPolicy(info, {"--int"}).message(),
            "EnforceMLPolicy threw a non-standard exception");
  EXPECT_EQ(p->jobHooks()->onJobAdd(ctx).message(), "OnJobAdd threw a non-standard exception");
}

}  // namespace
}  // namespace jobhost
