// Pod overhead in a task template (template.spec.overhead, kept as JSON): the CRD's int-or-string
// quantity schema, Kubernetes' validateOverhead in the webhook, and pod-level resources compared
// with the containers alone (validatePodResourceConsistency leaves the overhead out).
#include <gtest/gtest.h>

#include "host/admission/admission.h"
#include "tests/admission/admission_test_util.h"
#include "tests/workload/job_fixtures.h"

namespace jobhost {
namespace {

using testing_admission::Errors;
using testing_admission::errorsOf;
using testing_admission::standardConfig;

const std::string kQuantityRegex =
    "'^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$'";

/// One task of one container requesting 1 CPU, with `overhead` (and other pod fields) as JSON.
Job jobWith(UnknownFields podFields) {
  TaskSpec task = fixtures::task("t1", 1);
  task.template_.spec.containers[0].resources.requests = fixtures::resources({{"cpu", "1"}});
  task.template_.spec.unknown = std::move(podFields);
  return fixtures::job("job1", {task});
}

TEST(PodOverhead, ValidQuantitiesAreAllowed) {
  AdmissionResult r = validateJobCreate(jobWith({{"overhead", R"({"cpu":"250m","memory":125829120})"}}),
                                        standardConfig());
  EXPECT_TRUE(r.allowed) << r.message;
  EXPECT_TRUE(r.errors.empty());
}

TEST(PodOverhead, ValuesThatAreNotQuantitiesFailTheCrdSchema) {
  AdmissionResult r = validateJobCreate(jobWith({{"overhead", R"({"cpu":"xyz","memory":true})"}}), standardConfig());
  EXPECT_FALSE(r.allowed);
  EXPECT_EQ(errorsOf(r),
            (Errors{{"spec.tasks[0].template.spec.overhead.cpu",
                     "Invalid value: \"xyz\": spec.tasks[0].template.spec.overhead.cpu in body should match " +
                         kQuantityRegex},
                    {"spec.tasks[0].template.spec.overhead.memory",
                     "Invalid value: \"boolean\": spec.tasks[0].template.spec.overhead.memory in body must be of type "
                     "integer,string: \"boolean\""}}));
  r = validateJobCreate(jobWith({{"overhead", R"("250m")"}}), standardConfig());
  EXPECT_EQ(errorsOf(r), (Errors{{"spec.tasks[0].template.spec.overhead",
                                  "Invalid value: \"string\": spec.tasks[0].template.spec.overhead in body must be of "
                                  "type object: \"string\""}}));
}

TEST(PodOverhead, TheWebhookChecksItAsLimits) {
  AdmissionResult r = validateJobCreate(jobWith({{"overhead", R"({"cpu":"-250m","nvidia.com/gpu":"500m"})"}}),
                                        standardConfig());
  EXPECT_FALSE(r.allowed);
  EXPECT_EQ(r.message,
            "spec.task[0].template.spec.overhead.limits[cpu]: Invalid value: \"-250m\": must be greater than or equal "
            "to 0. template.spec.overhead.limits[nvidia.com/gpu]: Invalid value: \"500m\": must be an "
            "integer.");
}

TEST(PodOverhead, PodLevelRequestsAreComparedWithTheContainersAlone) {
  AdmissionResult r = validateJobCreate(jobWith({{"overhead", R"({"cpu":"250m"})"},
                                                 {"resources", R"({"requests":{"cpu":"1"}})"}}),
                                        standardConfig());
  EXPECT_TRUE(r.allowed) << r.message;
}

}  // namespace
}  // namespace jobhost
