// Mutation (spec §8.1): one case per step, Volcano's order, and the patch operations reported.
// Includes the svc/ssh plugin defaults for every framework name, torch included.
#include "host/admission/mutation.h"

#include <gtest/gtest.h>

#include "tests/workload/job_fixtures.h"

namespace jobhost {
namespace {

TaskSpec rawTask(std::string name, int32_t replicas) {
  TaskSpec t;
  t.name = std::move(name);
  t.replicas = replicas;
  t.template_.spec.containers.push_back(fixtures::container("c"));
  return t;
}

Job rawJob(std::vector<TaskSpec> tasks) {
  Job j;
  j.metadata.name = "j";
  j.spec.tasks = std::move(tasks);
  return j;
}

TEST(Mutation, AllStepsInVolcanoOrder) {
  TaskSpec hostNet = rawTask("", 2);
  hostNet.template_.spec.hostNetwork = true;
  TaskSpec worker = rawTask("w", 3);
  worker.minAvailable = 1;
  worker.maxRetry = 5;
  Job j = rawJob({hostNet, worker});
  j.spec.plugins = {{"mpi", {"--master=m"}}};

  const std::vector<PatchOp> ops = mutateJob(j, {});
  EXPECT_EQ(ops, (std::vector<PatchOp>{
                     {"add", "/spec/queue", "\"default\""},
                     {"add", "/spec/schedulerName", "\"volcano\""},
                     {"add", "/spec/maxRetry", "3"},
                     {"replace", "/spec/tasks",
                      "[0].name=\"default0\", [0].template.spec.dnsPolicy=\"ClusterFirstWithHostNet\", "
                      "[0].minAvailable=2, [0].maxRetry=3"},
                     {"add", "/spec/minAvailable", "3"},
                     {"replace", "/spec/plugins", "{\"mpi\":[\"--master=m\"],\"ssh\":[],\"svc\":[]}"},
                 }));
  EXPECT_EQ(j.spec.queue, "default");
  EXPECT_EQ(j.spec.schedulerName, "volcano");
  EXPECT_EQ(j.spec.maxRetry, 3);
  EXPECT_EQ(j.spec.tasks[0].name, "default0");
  EXPECT_EQ(j.spec.tasks[0].template_.spec.dnsPolicy, "ClusterFirstWithHostNet");
  EXPECT_EQ(j.spec.tasks[0].minAvailable, 2);
  EXPECT_EQ(j.spec.tasks[0].maxRetry, 3);
  EXPECT_EQ(j.spec.tasks[1].minAvailable, 1);
  EXPECT_EQ(j.spec.tasks[1].maxRetry, 5);
  EXPECT_EQ(j.spec.minAvailable, 3);  // Σ minAvailable after the task defaults
}

TEST(Mutation, DefaultedJobIsLeftAlone) {
  Job j = fixtures::job("j", {fixtures::task("t", 2, 2)});
  const Job before = j;
  EXPECT_TRUE(mutateJob(j, {}).empty());
  EXPECT_EQ(j, before);
}

TEST(Mutation, SchedulerNameIsTheFirstConfiguredOne) {
  Job j = rawJob({rawTask("t", 1)});
  mutateJob(j, MutationConfig{{"custom", "second"}});
  EXPECT_EQ(j.spec.schedulerName, "custom");
  j.spec.schedulerName = "mine";
  mutateJob(j, MutationConfig{{"custom"}});
  EXPECT_EQ(j.spec.schedulerName, "mine");
}

TEST(Mutation, QueueAndMaxRetryAreKeptWhenSet) {
  Job j = rawJob({rawTask("t", 1)});
  j.spec.queue = "q";
  j.spec.maxRetry = 7;
  j.spec.minAvailable = 1;
  for (const auto& op : mutateJob(j, {}))
    EXPECT_TRUE(op.path == "/spec/schedulerName" || op.path == "/spec/tasks") << op.path;
  EXPECT_EQ(j.spec.queue, "q");
  EXPECT_EQ(j.spec.maxRetry, 7);
  EXPECT_EQ(j.spec.minAvailable, 1);
}

TEST(Mutation, TaskMinAvailableFromPartitions) {
  TaskSpec t = rawTask("t", 8);
  t.partitionPolicy = PartitionPolicy{4, 2, std::nullopt, 3};
  TaskSpec noMin = rawTask("u", 8);
  noMin.partitionPolicy = PartitionPolicy{4, 2, std::nullopt, 0};
  Job j = rawJob({t, noMin});
  mutateJob(j, {});
  EXPECT_EQ(j.spec.tasks[0].minAvailable, 6);  // minPartitions * partitionSize
  EXPECT_EQ(j.spec.tasks[1].minAvailable, 8);  // replicas
  EXPECT_EQ(j.spec.minAvailable, 14);
}

TEST(Mutation, HostNetworkKeepsAnExplicitDnsPolicy) {
  TaskSpec t = rawTask("t", 1);
  t.template_.spec.hostNetwork = true;
  t.template_.spec.dnsPolicy = "Default";
  Job j = rawJob({t});
  mutateJob(j, {});
  EXPECT_EQ(j.spec.tasks[0].template_.spec.dnsPolicy, "Default");
}

struct PluginCase {
  std::map<std::string, std::vector<std::string>> plugins;
  std::string expected;
};

class MutationPlugins : public testing::TestWithParam<PluginCase> {};

TEST_P(MutationPlugins, AddsSvcAndSsh) {
  Job j = fixtures::job("j", {fixtures::task("t", 1, 1)});
  j.spec.plugins = GetParam().plugins;
  const auto ops = mutateJob(j, {});
  ASSERT_EQ(ops.size(), 1u);
  EXPECT_EQ(ops[0], (PatchOp{"replace", "/spec/plugins", GetParam().expected}));
}

INSTANTIATE_TEST_SUITE_P(
    Frameworks, MutationPlugins,
    testing::Values(PluginCase{{{"tensorflow", {}}}, R"({"svc":[],"tensorflow":[]})"},
                    PluginCase{{{"pytorch", {"--port=1"}}}, R"({"pytorch":["--port=1"],"svc":[]})"},
                    PluginCase{{{"torch", {}}}, R"({"svc":[],"torch":[]})"},
                    PluginCase{{{"ray", {}}}, R"({"ray":[],"svc":[]})"},
                    PluginCase{{{"mpi", {}}, {"svc", {"--disable-network-policy=true"}}},
                               R"({"mpi":[],"ssh":[],"svc":["--disable-network-policy=true"]})"},
                    PluginCase{{{"env", {}}}, R"({"env":[]})"},
                    PluginCase{{{"x", {"<&>"}}}, R"({"x":["\u003c\u0026\u003e"]})"}));

TEST(Mutation, NoPluginsNoPluginPatch) {
  Job j = fixtures::job("j", {fixtures::task("t", 1, 1)});
  EXPECT_TRUE(mutateJob(j, {}).empty());
  EXPECT_TRUE(j.spec.plugins.empty());
}

}  // namespace
}  // namespace jobhost
