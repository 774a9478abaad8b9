// Pipeline tests with probe plugins from real .so files: the fixed point order, config order
// within a point, fail fast with the plugin named, ComponentBuild discard, and env conflicts.
#include "host/plugin/pipeline.h"

#include <gtest/gtest.h>

namespace jobhost {
namespace {

Job twoTaskJob(std::vector<std::string> argsA, std::vector<std::string> argsB) {
  Job job;
  job.metadata.name = "p";
  job.metadata.namespace_ = "default";
  job.metadata.uid = "uid-1";
  for (const char* name : {"master", "worker"}) {
    TaskSpec t;
    t.name = name;
    t.replicas = 1;
    Container c;
    c.name = "main";
    t.template_.spec.containers.push_back(c);
    job.spec.tasks.push_back(t);
  }
  job.spec.plugins["probea"] = std::move(argsA);
  job.spec.plugins["probeb"] = std::move(argsB);
  return job;
}

std::shared_ptr<Registry> registry(const std::string& order) {
  auto c = parseHostConfig(order, "pipeline.json");
  EXPECT_TRUE(c) << c.error();
  c->pluginPath = {JOBHOST_FIXTURE_DIR};
  auto r = Registry::load(*c);
  EXPECT_TRUE(r) << r.error();
  return *r;
}

const char* kAB = R"({"plugins":[{"name":"probea"},{"name":"probeb"}]})";

TEST(Pipeline, FixedPointOrderAndConfigOrderWithinAPoint) {
  auto r = runPipeline(*registry(kAB), twoTaskJob({}, {}), {});
  ASSERT_TRUE(r.status) << r.status.message();
  EXPECT_EQ(r.info->annotations["trace"], "probea:ML,probeb:ML,probea:PG,probeb:PG,probea:NET,probeb:NET");
  ASSERT_EQ(r.built.size(), 2u);
  EXPECT_EQ(r.built[0].components.configMaps[0].metadata.name, "probea-cm");
  EXPECT_EQ(r.built[1].components.configMaps[0].metadata.name, "probeb-cm");
  auto reversed = runPipeline(*registry(R"({"plugins":[{"name":"probeb"},{"name":"probea"}]})"), twoTaskJob({}, {}), {});
  EXPECT_EQ(reversed.info->annotations["trace"], "probeb:ML,probea:ML,probeb:PG,probea:PG,probeb:NET,probea:NET");
}

TEST(Pipeline, FailFastNamesThePluginAndKeepsEarlierMutations) {
  auto r = runPipeline(*registry(kAB), twoTaskJob({"--fail-at=PG", "--env=A=1"}, {}), {});
  ASSERT_FALSE(r.status);
  EXPECT_EQ(r.status.message(), "plugin \"probea\" failed in PodGroupPolicy: probe asked to fail at PG");
  EXPECT_EQ(r.info->annotations["trace"], "probea:ML,probeb:ML,probea:PG");  // nothing after the failure ran
  ASSERT_EQ(r.info->podSets[0].containers[0].env.size(), 1u);                 // MLPolicy's change stays
  EXPECT_TRUE(r.built.empty());
}

// Info's labels and annotations (Trainer's JobSet metadata) go on the job's PodGroup, over the
// job's own; a failed pipeline builds no PodGroup to label.
TEST(Pipeline, InfoLabelsAndAnnotationsGoOnThePodGroupOverTheJobs) {
  Job job = twoTaskJob({"--label=team=ml"}, {"--label=tier=gold"});
  job.metadata.labels = {{"team", "web"}, {"app", "p"}};
  auto r = runPipeline(*registry(kAB), job, {});
  ASSERT_TRUE(r.status) << r.status.message();
  EXPECT_EQ(r.info->podGroup.metadata.labels,
            (StringMap{{"app", "p"}, {"team", "ml"}, {"tier", "gold"}}));
  EXPECT_EQ(r.info->podGroup.metadata.annotations.at("trace"),
            "probea:ML,probeb:ML,probea:PG,probeb:PG,probea:NET,probeb:NET");
  auto failed = runPipeline(*registry(kAB), twoTaskJob({"--label=team=ml", "--fail-at=NET"}, {}), {});
  ASSERT_FALSE(failed.status);
  EXPECT_EQ(failed.info->podGroup.metadata.labels.count("team"), 0u);
}

// Pod sets are the job's tasks: resizing, renaming or dropping one fails the point, naming the
// plugin and what to change instead, and later plugins do not run.
TEST(Pipeline, APluginThatReshapesThePodSetsFailsItsPoint) {
  auto count = runPipeline(*registry(kAB), twoTaskJob({}, {"--reshape-at=ML", "--reshape=count"}), {});
  EXPECT_EQ(count.status.message(),
            "plugin \"probeb\" failed in MLPolicy: changed podSets[1].count from 1 to 5: a pod set's count is its "
            "task's replicas (spec.tasks[1].replicas); set those in the job instead");
  EXPECT_EQ(count.info->annotations["trace"], "probea:ML,probeb:ML");
  auto rename = runPipeline(*registry(kAB), twoTaskJob({"--reshape-at=NET", "--reshape=rename"}, {}), {});
  EXPECT_EQ(rename.status.message(),
            "plugin \"probea\" failed in PodNetwork: renamed podSets[1] from \"worker\" to \"worker-x\"");
  auto drop = runPipeline(*registry(kAB), twoTaskJob({"--reshape-at=PG", "--reshape=drop"}, {}), {});
  EXPECT_EQ(drop.status.message(),
            "plugin \"probea\" failed in PodGroupPolicy: changed the number of pod sets from 2 to 1: pod sets are the "
            "job's tasks");
}

TEST(Pipeline, ComponentBuildFailureDiscardsEverythingBuilt) {
  auto r = runPipeline(*registry(kAB), twoTaskJob({}, {"--fail-at=BUILD"}), {});
  ASSERT_FALSE(r.status);
  EXPECT_EQ(r.status.message(), "plugin \"probeb\" failed in ComponentBuild: probe asked to fail at BUILD");
  EXPECT_TRUE(r.built.empty());
}

TEST(Pipeline, TwoPluginsSettingOneVariableDifferentlyIsAConflict) {
  auto r = runPipeline(*registry(kAB), twoTaskJob({"--env=MASTER_PORT=23456"}, {"--env=MASTER_PORT=29500"}), {});
  ASSERT_FALSE(r.status);
  EXPECT_EQ(r.status.message(),
            "env conflict: env var MASTER_PORT in container \"main\" of task master: plugin \"probeb\" sets "
            "\"29500\" but plugin \"probea\" set \"23456\"; configure one of them not to set it; env var "
            "MASTER_PORT in container \"main\" of task worker: plugin \"probeb\" sets \"29500\" but plugin "
            "\"probea\" set \"23456\"; configure one of them not to set it");
}

TEST(Pipeline, SameValueFromTwoPluginsIsFine) {
  auto r = runPipeline(*registry(kAB), twoTaskJob({"--env=X=1"}, {"--env=X=1"}), {});
  EXPECT_TRUE(r.status) << r.status.message();
}

TEST(Pipeline, OnlyPluginsTheJobNamesRun) {
  Job job = twoTaskJob({}, {});
  job.spec.plugins.erase("probeb");
  auto r = runPipeline(*registry(kAB), job, {});
  EXPECT_EQ(r.info->annotations["trace"], "probea:ML,probea:PG,probea:NET");
  auto always = runPipeline(*registry(R"({"plugins":[{"name":"probea"},{"name":"probeb","activation":"always"}]})"), job, {});
  EXPECT_EQ(always.info->annotations["trace"], "probea:ML,probeb:ML,probea:PG,probeb:PG,probea:NET,probeb:NET");
}

TEST(Pipeline, PodSetsStartFromTheTaskTemplates) {
  Job job = twoTaskJob({}, {});
  job.spec.tasks[1].replicas = 3;
  job.spec.tasks[1].template_.spec.containers[0].resources.requests["cpu"] = *Quantity::parse("1500m");
  auto info = newRuntimeInfo(job, {});
  ASSERT_EQ(info->podSets.size(), 2u);
  EXPECT_EQ(info->podSets[1].name, "worker");
  EXPECT_EQ(info->podSets[1].count, 3);
  EXPECT_EQ(info->podSets[1].singlePodRequests.at("cpu").toString(), "1500m");
  EXPECT_EQ(info->podGroup.metadata.name, "p-uid-1");
}

}  // namespace
}  // namespace jobhost
