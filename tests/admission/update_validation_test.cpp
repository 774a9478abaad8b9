// UPDATE validation (spec §8.3): the eight errors in order (message = the first, every error
// listed), and the "may not change fields other than" comparison after neutralising.
#include <gtest/gtest.h>

#include "host/admission/admission.h"
#include "tests/admission/admission_test_util.h"
#include "tests/workload/job_fixtures.h"

namespace jobhost {
namespace {

using testing_admission::Errors;
using testing_admission::errorsOf;
using testing_admission::standardConfig;

const std::string kMayNotChange =
    "job updates may not change fields other than `minAvailable`, `tasks[*].replicas under spec` and `PriorityClassName`";

Job baseJob() { return fixtures::job("job1", {fixtures::task("t1", 2, 1), fixtures::task("t2", 2)}); }

AdmissionResult update(const Job& newJob, const Job& oldJob = baseJob()) {
  return validateJobUpdate(oldJob, newJob, standardConfig());
}

TEST(UpdateValidation, ReplicasMinAvailableAndPriorityClassMayChange) {
  Job j = baseJob();
  j.spec.tasks[0].replicas = 5;
  j.spec.tasks[0].minAvailable = 4;
  j.spec.tasks[1].minAvailable = 1;
  j.spec.minAvailable = 6;
  j.spec.priorityClassName = "high";
  AdmissionResult r = update(j);
  EXPECT_TRUE(r.allowed);
  EXPECT_EQ(r.message, "");
}

struct UpdateCase {
  const char* name;
  void (*change)(Job&);
  std::string message;
  std::string field;
};

class UpdateErrors : public testing::TestWithParam<UpdateCase> {};

TEST_P(UpdateErrors, MessageIsTheError) {
  Job oldJob = baseJob(), newJob = baseJob();
  GetParam().change(oldJob);  // the same change on both sides, so only the rule under test fires
  GetParam().change(newJob);
  AdmissionResult r = update(newJob, oldJob);
  EXPECT_FALSE(r.allowed);
  EXPECT_EQ(r.message, GetParam().message);
  ASSERT_FALSE(r.errors.empty());
  EXPECT_EQ(r.errors[0].field, GetParam().field);
  EXPECT_EQ(r.errors[0].message, GetParam().message);
}

INSTANTIATE_TEST_SUITE_P(
    Rules, UpdateErrors,
    testing::Values(
        UpdateCase{"Replicas", [](Job& j) { j.spec.tasks[1].replicas = -1; j.spec.minAvailable = 0; },
                   "'replicas' must be >= 0 in task: t2", "spec.tasks[1].replicas"},
        UpdateCase{"TaskMinAvailableNegative", [](Job& j) { j.spec.tasks[0].minAvailable = -1; },
                   "'minAvailable' must be >= 0 in task: t1", "spec.tasks[0].minAvailable"},
        UpdateCase{"TaskMinAvailableAboveReplicas", [](Job& j) { j.spec.tasks[0].minAvailable = 3; },
                   "'minAvailable' must be <= 'replicas' in task: t1", "spec.tasks[0].minAvailable"},
        UpdateCase{"Partition", [](Job& j) { j.spec.tasks[1].partitionPolicy = PartitionPolicy{2, 2, std::nullopt, 0}; },
                   "'Replicas' are not equal to TotalPartitions*PartitionSize in task: t2, job: job1", "spec.tasks[1].replicas"},
        UpdateCase{"JobMinAvailableAboveReplicas", [](Job& j) { j.spec.minAvailable = 5; },
                   "job 'minAvailable' must not be greater than total replicas", "spec.minAvailable"},
        UpdateCase{"JobMinAvailableNegative", [](Job& j) { j.spec.minAvailable = -1; }, "job 'minAvailable' must be >= 0",
                   "spec.minAvailable"},
        UpdateCase{"NetworkTopology", [](Job& j) { j.spec.networkTopology = NetworkTopologySpec{"hard", 1, "t"}; },
                   "must not specify 'highestTierAllowed' and 'highestTierName' in networkTopology simultaneously",
                   "spec.networkTopology"}),
    [](const testing::TestParamInfo<UpdateCase>& info) { return info.param.name; });

TEST(UpdateValidation, ScalingPastTheHostsPodsPerJobLimitIsRejected) {
  AdmissionConfig config = standardConfig();
  config.maxPodsPerJob = 10;
  Job j = baseJob();
  j.spec.tasks[1].replicas = 9;
  AdmissionResult r = validateJobUpdate(baseJob(), j, config);
  EXPECT_FALSE(r.allowed);
  EXPECT_EQ(errorsOf(r), (Errors{{"spec.tasks[1].replicas",
                                  "the job has 11 pods in all; this host runs at most 10 per job (lower replicas, "
                                  "or raise controller.maxPodsPerJob in the config)"}}));
  j.spec.tasks[1].replicas = 8;
  EXPECT_TRUE(validateJobUpdate(baseJob(), j, config).allowed);
}

TEST(UpdateValidation, AddingOrRemovingTasks) {
  Job j = baseJob();
  j.spec.tasks.push_back(fixtures::task("t3", 1));
  AdmissionResult r = update(j);
  EXPECT_EQ(r.message, "job updates may not add or remove tasks");
  EXPECT_EQ(errorsOf(r), (Errors{{"spec.tasks", "job updates may not add or remove tasks"}}));
}

TEST(UpdateValidation, FirstErrorIsTheMessageButAllAreListed) {
  Job j = baseJob();
  j.spec.tasks[1].replicas = -1;
  j.spec.minAvailable = 9;
  j.spec.queue = "other";
  AdmissionResult r = update(j);
  EXPECT_EQ(r.message, "'replicas' must be >= 0 in task: t2");
  EXPECT_EQ(errorsOf(r), (Errors{{"spec.tasks[1].replicas", "'replicas' must be >= 0 in task: t2"},
                                 {"spec.minAvailable", "job 'minAvailable' must not be greater than total replicas"},
                                 {"spec.queue", kMayNotChange},
                                 {"spec.tasks[1].replicas", "'replicas' < 0 in task"}}));
}

TEST(UpdateValidation, OtherFieldsMayNotChange) {
  Job j = baseJob();
  j.spec.queue = "other";
  j.spec.maxRetry = 9;
  j.spec.tasks[1].template_.spec.containers[0].image = "new:tag";
  j.spec.tasks[0].policies = {fixtures::eventPolicy("PodFailed", "RestartJob")};
  j.spec.plugins = {{"svc", {}}};
  AdmissionResult r = update(j);
  EXPECT_EQ(r.message, kMayNotChange);
  EXPECT_EQ(errorsOf(r), (Errors{{"spec.tasks[0].policies", kMayNotChange},
                                 {"spec.tasks[1].template", kMayNotChange},
                                 {"spec.plugins", kMayNotChange},
                                 {"spec.queue", kMayNotChange},
                                 {"spec.maxRetry", kMayNotChange}}));
}

TEST(UpdateValidation, GeneratedClaimNamesAreIgnored) {
  Job oldJob = baseJob();
  oldJob.spec.volumes = {JobVolume{"/d", "", "{}"}, JobVolume{"/e", "fixed", std::nullopt}};
  Job newJob = oldJob;
  newJob.spec.volumes[0].volumeClaimName = "job1-pvc-abcdefghijkl";  // written by the controller
  EXPECT_TRUE(update(newJob, oldJob).allowed);
  newJob.spec.volumes[1].volumeClaimName = "changed";
  AdmissionResult r = update(newJob, oldJob);
  EXPECT_EQ(errorsOf(r), (Errors{{"spec.volumes", kMayNotChange}}));
}

}  // namespace
}  // namespace jobhost
