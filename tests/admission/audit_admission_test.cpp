// Conformance audit of admission against spec/volcano-job-controller.md §8.2 and §8.3: the order of
// errors within and across tasks that the rule-by-rule tests did not pin down.
#include <gtest/gtest.h>

#include "host/admission/admission.h"
#include "tests/admission/admission_test_util.h"
#include "tests/workload/job_fixtures.h"

namespace jobhost {
namespace {

using testing_admission::standardConfig;

// §8.2 step 4: in the task loop the minAvailable check comes before the duplicate-name check, so the
// duplicated task is checked for minAvailable before the loop stops.
TEST(AdmissionAudit, CreateChecksTaskMinAvailableBeforeTheDuplicateName) {
  Job j = fixtures::job("job1", {fixtures::task("t1", 1), fixtures::task("t1", 1, 2)});
  j.spec.minAvailable = 2;
  const AdmissionResult r = validateJobCreate(j, standardConfig());
  EXPECT_FALSE(r.allowed);
  EXPECT_EQ(r.message,
            "'minAvailable' is greater than 'replicas' in task: t1, job: job1; duplicated task name t1;");
}

// §8.3: the per-task rules run task by task, so an earlier task's later rule wins over a later
// task's earlier rule.
TEST(AdmissionAudit, UpdateReportsTheFirstFailingTaskFirst) {
  const Job oldJob = fixtures::job("job1", {fixtures::task("t1", 2, 1), fixtures::task("t2", 2)});
  Job j = oldJob;
  j.spec.tasks[0].minAvailable = 3;
  j.spec.tasks[1].replicas = -1;
  j.spec.minAvailable = 0;
  const AdmissionResult r = validateJobUpdate(oldJob, j, standardConfig());
  EXPECT_FALSE(r.allowed);
  EXPECT_EQ(r.message, "'minAvailable' must be <= 'replicas' in task: t1");
}

}  // namespace
}  // namespace jobhost
