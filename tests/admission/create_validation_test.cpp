// CREATE validation (spec §8.2): every webhook rule with Volcano's exact message, its order, stop
// rules, concatenation and trimming, and the field each error points at.
#include <gtest/gtest.h>

#include <cstdint>

#include "host/admission/admission.h"
#include "tests/admission/admission_test_util.h"
#include "tests/workload/job_fixtures.h"

namespace jobhost {
namespace {

using fixtures::eventPolicy;
using testing_admission::Errors;
using testing_admission::errorsOf;
using testing_admission::kQualifiedRegex;
using testing_admission::kSubdomainRegex;
using testing_admission::kValidLists;
using testing_admission::standardConfig;

Job validJob() { return fixtures::job("job1", {fixtures::task("t1", 1)}); }

AdmissionResult create(const Job& job, const AdmissionConfig& config = standardConfig()) {
  return validateJobCreate(job, config);
}

// The webhook message and that the job is rejected.
void expectMessage(const Job& job, const std::string& message) {
  AdmissionResult r = create(job);
  EXPECT_FALSE(r.allowed);
  EXPECT_EQ(r.message, message);
}

TEST(CreateValidation, ValidJobIsAllowed) {
  AdmissionResult r = create(validJob());
  EXPECT_TRUE(r.allowed);
  EXPECT_EQ(r.message, "");
  EXPECT_TRUE(r.errors.empty());
  EXPECT_TRUE(r.warnings.empty());
}

// The host's own limit (config controller.maxPodsPerJob), after Volcano's rules: replicas summed
// in 64 bits, the error at the task where the sum crosses the limit; 0 lifts it.
TEST(CreateValidation, TheHostLimitsPodsPerJob) {
  AdmissionConfig config = standardConfig();
  config.maxPodsPerJob = 100;
  Job j = fixtures::job("job1", {fixtures::task("a", 60), fixtures::task("b", 40), fixtures::task("c", 1)});
  j.spec.minAvailable = 1;
  AdmissionResult r = create(j, config);
  EXPECT_FALSE(r.allowed);
  EXPECT_EQ(r.message, "");  // not a webhook error
  EXPECT_EQ(errorsOf(r), (Errors{{"spec.tasks[2].replicas",
                                  "the job has 101 pods in all; this host runs at most 100 per job (lower replicas, "
                                  "or raise controller.maxPodsPerJob in the config)"}}));
  j.spec.tasks.pop_back();
  EXPECT_TRUE(create(j, config).allowed);  // exactly the limit

  Job huge = fixtures::job("job1", {fixtures::task("a", INT32_MAX), fixtures::task("b", INT32_MAX)});
  huge.spec.minAvailable = 1;
  config.maxPodsPerJob = 100000;
  EXPECT_EQ(errorsOf(create(huge, config)).back(),
            (std::pair<std::string, std::string>{"spec.tasks[0].replicas",
                                                 "the job has 4294967294 pods in all; this host runs at most 100000 "
                                                 "per job (lower replicas, or raise controller.maxPodsPerJob in the config)"}));
  config.maxPodsPerJob = 0;
  j.spec.tasks.push_back(fixtures::task("c", 1));
  EXPECT_TRUE(create(j, config).allowed);
}

TEST(CreateValidation, NoTasksReturnsImmediately) {
  Job j = validJob();
  j.spec.tasks.clear();
  j.spec.minAvailable = 5;  // would otherwise be reported too
  j.spec.queue = "missing";
  AdmissionResult r = create(j);
  EXPECT_EQ(r.message, "No task specified in job spec");
  EXPECT_EQ(errorsOf(r), (Errors{{"spec.tasks", "No task specified in job spec"}}));
}

TEST(CreateValidation, MpiMasterMustExist) {
  Job j = fixtures::job("job1", {fixtures::task("worker", 2)});
  j.spec.plugins = {{"mpi", {"--master=launcher"}}};
  j.spec.minAvailable = 9;  // not reported: the webhook returns at once
  AdmissionResult r = create(j);
  EXPECT_EQ(r.message, "The specified mpi master task was not found");
  EXPECT_EQ(errorsOf(r), (Errors{{"spec.plugins.mpi", "The specified mpi master task was not found"}}));

  j.spec.minAvailable = 2;
  j.spec.plugins = {{"mpi", {}}};
  EXPECT_EQ(create(j).message, "The specified mpi master task was not found");  // default --master=master
  j.spec.tasks.push_back(fixtures::task("master", 1));
  j.spec.minAvailable = 3;
  EXPECT_TRUE(create(j).allowed);
  j.spec.plugins = {{"mpi", {"--bogus", "--master=nope"}}};  // parsing stops at the unknown flag
  EXPECT_TRUE(create(j).allowed);
}

// --slots is jobhost's documented mpi flag (the hostfile's slots per worker), so the master check
// parses the args with the mpi plugin's own flag set: --master is found after it, in every form.
TEST(CreateValidation, MpiMasterIsFoundAfterTheSlotsFlag) {
  Job j = fixtures::job("job1", {fixtures::task("launcher", 1), fixtures::task("worker", 2)});
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"--slots=4", "--master=launcher"}, {"--slots", "4", "--master", "launcher"},
        {"-slots=4", "-port=2222", "-master=launcher"}, {"--worker=worker", "--slots=2", "--master=launcher"},
        {"--run-launcher-as-node", "--master=launcher"}, {"--runLauncherAsNode", "--master", "launcher"}}) {
    j.spec.plugins = {{"mpi", args}};
    AdmissionResult r = create(j);
    EXPECT_TRUE(r.allowed) << args[0] << ": " << r.message;
    EXPECT_EQ(r.message, "");
  }
  // A flag neither Volcano nor jobhost knows still stops the parse, as Go's flag package does:
  // --master after it is never read, the default "master" is looked for and is missing.
  j.spec.plugins = {{"mpi", {"--slots=4", "--bogus=1", "--master=launcher"}}};
  EXPECT_EQ(create(j).message, "The specified mpi master task was not found");
  // A bad --slots value stops the parse too (the mpi plugin reports the value itself).
  j.spec.plugins = {{"mpi", {"--slots=x", "--master=launcher"}}};
  EXPECT_EQ(create(j).message, "The specified mpi master task was not found");
}

// The master the check looks for is the one the mpi plugin uses: the config's default args for the
// plugin first, then the job's (AdmissionConfig::pluginArgs, which the host fills from its registry).
TEST(CreateValidation, MpiMasterUsesThePluginsEffectiveArgs) {
  Job j = fixtures::job("job1", {fixtures::task("launcher", 1), fixtures::task("worker", 2)});
  j.spec.plugins = {{"mpi", {}}};
  AdmissionConfig config = standardConfig();
  std::string askedFor;
  config.pluginArgs = [&](const std::string& name, const Job& job) {
    askedFor = name;
    std::vector<std::string> args = {"--master=launcher", "--slots=8"};  // the config's defaults
    const auto& own = job.spec.plugins.at(name);
    args.insert(args.end(), own.begin(), own.end());
    return args;
  };
  EXPECT_TRUE(create(j, config).allowed);
  EXPECT_EQ(askedFor, "mpi");
  j.spec.plugins = {{"mpi", {"--master=chief"}}};  // the job's own args come last and win
  EXPECT_EQ(create(j, config).message, "The specified mpi master task was not found");
  EXPECT_EQ(create(j).message, "The specified mpi master task was not found");  // unset: the job's args alone
}

TEST(CreateValidation, NetworkTopologyTiers) {
  Job j = validJob();
  j.spec.networkTopology = NetworkTopologySpec{"hard", 1, "tier"};
  expectMessage(j, "must not specify 'highestTierAllowed' and 'highestTierName' in networkTopology simultaneously");
  EXPECT_EQ(errorsOf(create(j))[0].first, "spec.networkTopology");
}

TEST(CreateValidation, TaskMinAvailableAboveReplicas) {
  Job j = fixtures::job("job1", {fixtures::task("t1", 1, 2)});
  j.spec.minAvailable = 1;
  AdmissionResult r = create(j);
  EXPECT_EQ(r.message, "'minAvailable' is greater than 'replicas' in task: t1, job: job1;");
  EXPECT_EQ(errorsOf(r), (Errors{{"spec.tasks[0].minAvailable", "'minAvailable' is greater than 'replicas' in task: t1, job: job1"}}));
}

TEST(CreateValidation, DuplicateTaskNameStopsTheTaskLoop) {
  Job j = fixtures::job("job1", {fixtures::task("t1", 1), fixtures::task("t1", 1), fixtures::task("t2", 1, 5)});
  j.spec.minAvailable = 3;  // replicas counted before the break: 2
  AdmissionResult r = create(j);
  EXPECT_EQ(r.message, "duplicated task name t1; job 'minAvailable' should not be greater than total replicas in tasks;");
  EXPECT_EQ(errorsOf(r), (Errors{{"spec.tasks[1].name", "duplicated task name t1"},
                                 {"spec.minAvailable", "job 'minAvailable' should not be greater than total replicas in tasks"}}));
}

TEST(CreateValidation, TaskPoliciesUseMultierrorAndValidLists) {
  Job j = validJob();
  j.spec.tasks[0].policies = {eventPolicy("Foo", "AbortJob")};
  AdmissionResult r = create(j);
  EXPECT_EQ(r.message, "1 error occurred:\n\t* spec.tasks.policies: Invalid value: \"Foo\": invalid policy event\n\n" + kValidLists);
  EXPECT_EQ(errorsOf(r), (Errors{{"spec.tasks[0].policies[0].event", "Invalid value: \"Foo\": invalid policy event"}}));
}

TEST(CreateValidation, PodNameUsesTheTaskPosition) {
  const std::string jobName(40, 'j');
  Job j = fixtures::job(jobName, {fixtures::task("t1", 3), fixtures::task("abcdefghijklmnopqrstu", 1)});
  const std::string pod = jobName + "-abcdefghijklmnopqrstu-1";  // 64 bytes; index 1 is the task's position
  AdmissionResult r = create(j);
  EXPECT_EQ(r.message, "create pod with name " + pod + " validate failed [name part must be no more than 63 bytes];");
  EXPECT_EQ(errorsOf(r), (Errors{{"spec.tasks[1].name", "create pod with name " + pod +
                                                            " validate failed [name part must be no more than 63 bytes]"}}));
}

TEST(CreateValidation, PodTemplateErrorsArePrefixedAndDotted) {
  Job j = validJob();
  j.spec.tasks[0].template_.spec.containers[0] = fixtures::container("C_1", "");
  const std::string nameError =
      "Invalid value: \"C_1\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or "
      "'-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for "
      "validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
  AdmissionResult r = create(j);
  EXPECT_EQ(r.message, "spec.task[0].template.spec.containers[0].name: " + nameError +
                           ". template.spec.containers[0].image: Required value.");
  EXPECT_EQ(errorsOf(r), (Errors{{"spec.tasks[0].template.spec.containers[0].name", nameError},
                                 {"spec.tasks[0].template.spec.containers[0].image", "Required value"}}));
}

TEST(CreateValidation, TopologyPolicyNeedsWholeCpus) {
  Job j = validJob();
  TaskSpec& t = j.spec.tasks[0];
  t.topologyPolicy = "single-numa-node";
  t.template_.spec.containers[0].resources.requests = fixtures::resources({{"cpu", "500m"}});
  AdmissionResult r = create(j);
  EXPECT_EQ(r.message, "the cpu request isn't  an integer in spec.task[0] container[0].");
  EXPECT_EQ(errorsOf(r), (Errors{{"spec.tasks[0].template.spec.containers[0].resources.requests.cpu",
                                  "the cpu request isn't  an integer in spec.task[0] container[0]."}}));

  t.template_.spec.containers[0].resources.requests.clear();
  t.template_.spec.containers[0].resources.limits = fixtures::resources({{"cpu", "2"}});  // limits stand in
  EXPECT_TRUE(create(j).allowed);
  t.template_.spec.initContainers = {fixtures::container("init")};  // no CPU at all counts as not whole
  r = create(j);
  EXPECT_EQ(r.message, "the cpu request isn't  an integer in spec.task[0] container[1].");
  EXPECT_EQ(r.errors[0].field, "spec.tasks[0].template.spec.initContainers[0].resources.requests.cpu");
  t.topologyPolicy = "none";
  EXPECT_TRUE(create(j).allowed);
}

TEST(CreateValidation, TopologyRuleIsSkippedWhenTheTemplateIsInvalid) {
  Job j = validJob();
  j.spec.tasks[0].topologyPolicy = "best-effort";
  j.spec.tasks[0].template_.spec.containers[0].image = "";
  EXPECT_EQ(create(j).message, "spec.task[0].template.spec.containers[0].image: Required value.");
}

struct PartitionCase {
  const char* name;
  int32_t totalPartitions, partitionSize, minPartitions;
  bool bothTiers;
  int32_t replicas;
  std::optional<int32_t> minAvailable;
  std::string message;
  std::string field;
};

class CreatePartitions : public testing::TestWithParam<PartitionCase> {};

TEST_P(CreatePartitions, FirstFailingRule) {
  const PartitionCase& c = GetParam();
  TaskSpec t = fixtures::task("t1", c.replicas, c.minAvailable);
  t.partitionPolicy = PartitionPolicy{c.totalPartitions, c.partitionSize, std::nullopt, c.minPartitions};
  if (c.bothTiers) t.partitionPolicy->networkTopology = NetworkTopologySpec{"hard", 1, "tier"};
  Job j = fixtures::job("job1", {t});
  j.spec.minAvailable = 1;
  AdmissionResult r = create(j);
  EXPECT_EQ(r.message, c.message);
  if (!c.message.empty()) {
    ASSERT_FALSE(r.errors.empty());
    EXPECT_EQ(r.errors[0].field, c.field);
    EXPECT_EQ(r.errors[0].message, c.message);
  }
}

INSTANTIATE_TEST_SUITE_P(
    Rules, CreatePartitions,
    testing::Values(
        PartitionCase{"Valid", 2, 4, 0, false, 8, std::nullopt, "", ""},
        PartitionCase{"TotalPartitions", 0, 4, 0, false, 8, std::nullopt,
                      "'TotalPartitions' must be greater than 0 in task: t1, job: job1", "spec.tasks[0].partitionPolicy.totalPartitions"},
        PartitionCase{"PartitionSize", 2, -1, 0, false, 8, std::nullopt,
                      "'PartitionSize' must be greater than 0 in task: t1, job: job1", "spec.tasks[0].partitionPolicy.partitionSize"},
        PartitionCase{"Replicas", 2, 3, 0, false, 8, std::nullopt,
                      "'Replicas' are not equal to TotalPartitions*PartitionSize in task: t1, job: job1", "spec.tasks[0].replicas"},
        PartitionCase{"MinAvailable", 4, 2, 1, false, 8, 4,
                      "'MinAvailable' is not equal to MinPartitions*PartitionSize in task: t1, job: job1", "spec.tasks[0].minAvailable"},
        PartitionCase{"MinAvailableMatches", 4, 2, 2, false, 8, 4, "", ""},
        PartitionCase{"MinAvailableWithoutMinPartitions", 4, 2, 0, false, 8, 3, "", ""},
        PartitionCase{"Tiers", 2, 4, 0, true, 8, std::nullopt,
                      "must not specify 'highestTierAllowed' and 'highestTierName' in networkTopology simultaneously",
                      "spec.tasks[0].partitionPolicy.networkTopology"}),
    [](const testing::TestParamInfo<PartitionCase>& info) { return info.param.name; });

// Volcano multiplies the partition fields as int32s: 65536*65536 wraps to 0, which equals 0 replicas.
TEST(CreateValidation, PartitionProductsWrapLikeGoInt32) {
  TaskSpec t = fixtures::task("t1", 0, 0);
  t.partitionPolicy = PartitionPolicy{65536, 65536, std::nullopt, 65536};
  Job j = fixtures::job("job1", {t});
  EXPECT_EQ(create(j).message, "");
}

TEST(CreateValidation, PartitionPieceIsGluedToTheMessage) {
  TaskSpec t = fixtures::task("t1", 1, 2);
  t.partitionPolicy = PartitionPolicy{2, 2, std::nullopt, 0};
  Job j = fixtures::job("job1", {t});
  j.spec.minAvailable = 1;
  EXPECT_EQ(create(j).message,
            "'minAvailable' is greater than 'replicas' in task: t1, job: job1;'Replicas' are not equal to "
            "TotalPartitions*PartitionSize in task: t1, job: job1");
}

TEST(CreateValidation, JobNameAndPodNameConcatenateWithoutSpaces) {
  Job j = validJob();
  j.metadata.name = "-job";
  AdmissionResult r = create(j);
  EXPECT_EQ(r.message, "create pod with name -job-t1-0 validate failed [name part " + kQualifiedRegex +
                           "];create job with name -job validate failed [name part " + kQualifiedRegex + "]");
  EXPECT_EQ(errorsOf(r)[1], (std::pair<std::string, std::string>{
                                "metadata.name", "create job with name -job validate failed [name part " + kQualifiedRegex + "]"}));
}

TEST(CreateValidation, TotalReplicasBelowMinAvailable) {
  Job j = validJob();
  j.spec.minAvailable = 3;
  AdmissionResult r = create(j);
  EXPECT_EQ(r.message, "job 'minAvailable' should not be greater than total replicas in tasks;");
  EXPECT_EQ(errorsOf(r), (Errors{{"spec.minAvailable", "job 'minAvailable' should not be greater than total replicas in tasks"}}));
}

// Volcano sums replicas in an int32, which wraps: two tasks of 2^31-1 replicas total -2.
TEST(CreateValidation, TotalReplicasWrapLikeGoInt32) {
  Job j = fixtures::job("job1", {fixtures::task("a", INT32_MAX, 1), fixtures::task("b", INT32_MAX, 1)});
  j.spec.minAvailable = 1;
  EXPECT_EQ(create(j).message, "job 'minAvailable' should not be greater than total replicas in tasks;");
  Job u = j;
  u.spec.minAvailable = 2;
  EXPECT_EQ(validateJobUpdate(j, u, standardConfig()).message,
            "job 'minAvailable' must not be greater than total replicas");
}

TEST(CreateValidation, JobPoliciesWithTwoErrors) {
  Job j = validJob();
  j.spec.policies = {eventPolicy("*", "AbortJob"), eventPolicy("PodFailed", "RestartJob"), eventPolicy("PodFailed", "AbortJob")};
  AdmissionResult r = create(j);
  EXPECT_EQ(r.message,
            "2 errors occurred:\n\t* duplicate event PodFailed  across different policy\n\t* if there's * here, no other "
            "policy should be here\n\n" + kValidLists);
  EXPECT_EQ(errorsOf(r), (Errors{{"spec.policies[2].event", "duplicate event PodFailed  across different policy"},
                                 {"spec.policies", "if there's * here, no other policy should be here"}}));
}

TEST(CreateValidation, UnknownPluginsInNameOrder) {
  Job j = validJob();
  j.spec.plugins = {{"zeta", {}}, {"svc", {}}, {"alpha", {}}};
  AdmissionResult r = create(j);
  EXPECT_EQ(r.message, "unable to find job plugin: alpha; unable to find job plugin: zeta;");
  EXPECT_EQ(errorsOf(r), (Errors{{"spec.plugins.alpha", "unable to find job plugin: alpha"},
                                 {"spec.plugins.zeta", "unable to find job plugin: zeta"}}));
  AdmissionConfig none = standardConfig();
  none.knownPlugin = nullptr;  // unset: nothing is known
  EXPECT_EQ(create(j, none).message,
            "unable to find job plugin: alpha; unable to find job plugin: svc; unable to find job plugin: zeta;");
}

struct VolumeCase {
  const char* name;
  std::vector<JobVolume> volumes;
  std::string message;
  std::string field;
};

class CreateVolumes : public testing::TestWithParam<VolumeCase> {};

TEST_P(CreateVolumes, FirstError) {
  Job j = validJob();
  j.spec.volumes = GetParam().volumes;
  AdmissionResult r = create(j);
  EXPECT_EQ(r.message, GetParam().message);
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].field, GetParam().field);
}

INSTANTIATE_TEST_SUITE_P(
    Rules, CreateVolumes,
    testing::Values(
        VolumeCase{"MountPathRequired", {{"", "c", std::nullopt}, {"/d", "", std::nullopt}}, "mountPath is required;",
                   "spec.volumes[0].mountPath"},
        VolumeCase{"DuplicateMountPath", {{"/d", "c1", std::nullopt}, {"/d", "c2", std::nullopt}}, "duplicated mountPath: /d;",
                   "spec.volumes[1].mountPath"},
        VolumeCase{"ClaimRequired", {{"/d", "", std::nullopt}}, "either VolumeClaim or VolumeClaimName must be specified;",
                   "spec.volumes[0]"},
        VolumeCase{"Conflict", {{"/d", "c1", "{}"}},
                   "conflict: If you want to use an existing PVC, just specify VolumeClaimName.If you want to create a "
                   "new PVC, you do not need to specify VolumeClaimName",
                   "spec.volumes[0].volumeClaimName"},
        VolumeCase{"InvalidClaimName", {{"/d", "Bad_Claim", std::nullopt}},
                   "invalid VolumeClaimName Bad_Claim : [" + kSubdomainRegex + "]", "spec.volumes[0].volumeClaimName"}),
    [](const testing::TestParamInfo<VolumeCase>& info) { return info.param.name; });

TEST(CreateValidation, NewClaimsAreValid) {
  Job j = validJob();
  j.spec.volumes = {{"/d", "", "{\"resources\":{}}"}, {"/e", "existing", std::nullopt}};
  EXPECT_TRUE(create(j).allowed);
}

struct QueueCase {
  const char* name;
  std::vector<QueueConfig> queues;
  std::string queue;
  std::string message;
};

class CreateQueues : public testing::TestWithParam<QueueCase> {};

TEST_P(CreateQueues, Checks) {
  Job j = validJob();
  j.spec.queue = GetParam().queue;
  AdmissionConfig config = standardConfig();
  config.queues = GetParam().queues;
  AdmissionResult r = create(j, config);
  EXPECT_EQ(r.message, GetParam().message);
  for (const auto& e : r.errors) EXPECT_EQ(e.field, "spec.queue");
}

INSTANTIATE_TEST_SUITE_P(
    Rules, CreateQueues,
    testing::Values(
        QueueCase{"ImplicitDefault", {}, "default", ""},
        QueueCase{"Missing", {}, "q1", "unable to find job queue: queue.scheduling.volcano.sh \"q1\" not found;"},
        QueueCase{"Closed", {{"q1", "Closed", ""}}, "q1", "can only submit job to queue with state `Open`, queue `q1` status is `Closed`;"},
        QueueCase{"Root", {}, "root", "can not submit job to root queue;"},
        QueueCase{"NotALeaf", {{"p", "Open", ""}, {"c1", "Open", "p"}, {"c2", "Open", "p"}}, "p",
                  "can only submit job to leaf queue, queue `p` has 2 child queues;"},
        QueueCase{"ClosedParent", {{"p", "Closing", ""}, {"c1", "Open", "p"}}, "p",
                  "can only submit job to queue with state `Open`, queue `p` status is `Closing`; can only submit job to "
                  "leaf queue, queue `p` has 1 child queues;"},
        QueueCase{"Leaf", {{"p", "Open", ""}, {"c1", "Open", "p"}}, "c1", ""}),
    [](const testing::TestParamInfo<QueueCase>& info) { return info.param.name; });

TEST(CreateValidation, DependsOnMustFormADag) {
  const std::string message = "job has dependencies between tasks, but doesn't form a directed acyclic graph(DAG);";
  TaskSpec a = fixtures::task("a", 1), b = fixtures::task("b", 1);
  a.dependsOn = DependsOn{{"b"}, ""};
  EXPECT_TRUE(create(fixtures::job("job1", {a, b})).allowed);

  b.dependsOn = DependsOn{{"a"}, ""};
  AdmissionResult r = create(fixtures::job("job1", {a, b}));
  EXPECT_EQ(r.message, message);
  EXPECT_EQ(errorsOf(r), (Errors{{"spec.tasks[0].dependsOn", "job has dependencies between tasks, but doesn't form a directed acyclic graph(DAG)"}}));

  b.dependsOn.reset();
  a.dependsOn = DependsOn{{"missing"}, "any"};
  EXPECT_EQ(create(fixtures::job("job1", {a, b})).message, message);
  a.dependsOn = DependsOn{{"b", "b"}, ""};  // a repeated dependency never resolves, as in Volcano
  EXPECT_EQ(create(fixtures::job("job1", {a, b})).message, message);
}

// Volcano notes "has dependencies" inside the task loop, so tasks after a duplicated name (where the
// loop stops) do not count; once it is set, the sort sees every task and a repeated name never sorts.
TEST(CreateValidation, DependenciesAreOnlySeenUpToADuplicatedTaskName) {
  TaskSpec a = fixtures::task("a", 1), b = fixtures::task("b", 1);
  b.dependsOn = DependsOn{{"a"}, ""};
  Job j = fixtures::job("job1", {a, a, b});
  j.spec.minAvailable = 1;  // the loop counts replicas only up to the duplicate
  AdmissionResult r = create(j);
  EXPECT_EQ(r.message, "duplicated task name a;");
  EXPECT_EQ(errorsOf(r), (Errors{{"spec.tasks[1].name", "duplicated task name a"}}));

  j = fixtures::job("job1", {b, a, a});
  j.spec.minAvailable = 1;
  EXPECT_EQ(create(j).message,
            "duplicated task name a; job has dependencies between tasks, but doesn't form a directed acyclic graph(DAG);");
  TaskSpec c = a;
  c.dependsOn = DependsOn{{}, ""};  // an empty dependsOn counts: the duplicate itself never sorts
  j = fixtures::job("job1", {a, c});
  EXPECT_EQ(create(j).message,
            "duplicated task name a; job has dependencies between tasks, but doesn't form a directed acyclic graph(DAG);");
}

TEST(CreateValidation, EveryPieceIsConcatenatedThenTrimmed) {
  Job j = fixtures::job("job1", {fixtures::task("t1", 1, 2)});
  j.spec.minAvailable = 1;
  j.spec.plugins = {{"foo", {}}};
  j.spec.queue = "nope";
  AdmissionResult r = create(j);
  EXPECT_EQ(r.message,
            "'minAvailable' is greater than 'replicas' in task: t1, job: job1; unable to find job plugin: foo; unable to "
            "find job queue: queue.scheduling.volcano.sh \"nope\" not found;");
  EXPECT_EQ(r.errors.size(), 3u);
}

}  // namespace
}  // namespace jobhost
