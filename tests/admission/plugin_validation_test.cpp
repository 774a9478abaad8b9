// Validation plugins through the admission hook: warnings and errors merged after the built-in
// rules, every plugin run even when the job is already rejected, oldJob passed on update only, and
// exceptions turned into errors.
#include <gtest/gtest.h>

#include <stdexcept>

#include "host/admission/admission.h"
#include "tests/admission/admission_test_util.h"
#include "tests/workload/job_fixtures.h"

namespace jobhost {
namespace {

using testing_admission::Errors;
using testing_admission::errorsOf;
using testing_admission::standardConfig;

TEST(PluginValidation, WarningsAndErrorsAreMerged) {
  AdmissionConfig config = standardConfig();
  const Job* seenOld = reinterpret_cast<const Job*>(1);
  config.pluginValidation = [&](const Job& job, const Job* oldJob, ValidationResult& out) {
    seenOld = oldJob;
    out.warnings.push_back("torch: numProcPerNode ignored for " + job.metadata.name);
    out.errors.push_back({"spec.tasks[0].template.spec.containers[0].env", "must not have reserved envs: [RANK]"});
    out.errors.push_back({"spec.plugins.mpi", "second plugin error"});
  };
  Job j = fixtures::job("job1", {fixtures::task("t1", 1)});
  j.spec.minAvailable = 5;  // a built-in error too: plugins still run, their errors come after
  AdmissionResult r = validateJobCreate(j, config);
  EXPECT_FALSE(r.allowed);
  EXPECT_EQ(seenOld, nullptr);
  EXPECT_EQ(r.message, "job 'minAvailable' should not be greater than total replicas in tasks;");
  EXPECT_EQ(errorsOf(r), (Errors{{"spec.minAvailable", "job 'minAvailable' should not be greater than total replicas in tasks"},
                                 {"spec.tasks[0].template.spec.containers[0].env", "must not have reserved envs: [RANK]"},
                                 {"spec.plugins.mpi", "second plugin error"}}));
  EXPECT_EQ(r.warnings, (std::vector<std::string>{"torch: numProcPerNode ignored for job1"}));
}

TEST(PluginValidation, WarningsAloneDoNotReject) {
  AdmissionConfig config = standardConfig();
  config.pluginValidation = [](const Job&, const Job*, ValidationResult& out) { out.warnings.push_back("heads up"); };
  AdmissionResult r = validateJobCreate(fixtures::job("job1", {fixtures::task("t1", 1)}), config);
  EXPECT_TRUE(r.allowed);
  EXPECT_EQ(r.warnings, (std::vector<std::string>{"heads up"}));
}

TEST(PluginValidation, UpdatePassesTheOldJob) {
  AdmissionConfig config = standardConfig();
  std::string oldName;
  config.pluginValidation = [&](const Job&, const Job* oldJob, ValidationResult&) {
    ASSERT_NE(oldJob, nullptr);
    oldName = oldJob->metadata.uid;
  };
  Job oldJob = fixtures::job("job1", {fixtures::task("t1", 1)});
  oldJob.metadata.uid = "old";
  EXPECT_TRUE(validateJobUpdate(oldJob, fixtures::job("job1", {fixtures::task("t1", 1)}), config).allowed);
  EXPECT_EQ(oldName, "old");
}

TEST(PluginValidation, ExceptionsBecomeErrors) {
  AdmissionConfig config = standardConfig();
  config.pluginValidation = [](const Job&, const Job*, ValidationResult& out) {
    out.warnings.push_back("before the throw");
    throw std::runtime_error("boom");
  };
  AdmissionResult r = validateJobCreate(fixtures::job("job1", {fixtures::task("t1", 1)}), config);
  EXPECT_FALSE(r.allowed);
  EXPECT_EQ(errorsOf(r), (Errors{{"", "validation plugins failed: boom"}}));
  EXPECT_EQ(r.warnings, (std::vector<std::string>{"before the throw"}));
}

TEST(PluginValidation, ThrowingPluginPredicateIsAnError) {
  AdmissionConfig config = standardConfig();
  config.knownPlugin = [](const std::string&) -> bool { throw std::runtime_error("registry gone"); };
  Job j = fixtures::job("job1", {fixtures::task("t1", 1)});
  j.spec.plugins = {{"svc", {}}};
  AdmissionResult r = validateJobCreate(j, config);
  EXPECT_FALSE(r.allowed);
  EXPECT_EQ(errorsOf(r), (Errors{{"", "admission failed: registry gone"}}));
}

}  // namespace
}  // namespace jobhost
