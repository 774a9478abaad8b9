// Object names: pod names, the PodGroup name, deterministic claim and pod volume names, owner
// reference. Claim and volume names must be reproducible for the same job uid.
#include "host/workload/names.h"

#include <gtest/gtest.h>

#include "tests/workload/job_fixtures.h"
#include "jobhost/volcano.h"

namespace jobhost {
namespace {

TEST(Names, PodNameIsJobTaskIndex) {
  EXPECT_EQ(podName("train", "worker", 0), "train-worker-0");
  EXPECT_EQ(podName("train", "worker", 12), "train-worker-12");
  EXPECT_EQ(podName("j", "", 3), "j--3");
}

TEST(Names, PodGroupNameIsJobDashUid) {
  Job j = fixtures::job("train", {});
  j.metadata.uid = "1f2e";
  EXPECT_EQ(podGroupName(j), "train-1f2e");
}

TEST(Names, JobVolumeNameIsJobPlusTwelveBase36Characters) {
  Job j = fixtures::job("train", {});
  const std::string name = jobVolumeName(j, "data");
  ASSERT_EQ(name.size(), std::string("train-").size() + 12);
  EXPECT_EQ(name.rfind("train-", 0), 0u);
  for (char c : name.substr(6)) EXPECT_TRUE((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z')) << name;
}

TEST(Names, JobVolumeNameIsDeterministicPerUidAndClaim) {
  Job a = fixtures::job("train", {});
  Job b = a;
  EXPECT_EQ(jobVolumeName(a, "data"), jobVolumeName(b, "data"));
  EXPECT_NE(jobVolumeName(a, "data"), jobVolumeName(a, "logs"));
  b.metadata.uid = "uid-2";
  EXPECT_NE(jobVolumeName(a, "data"), jobVolumeName(b, "data"));
  Job c = a;  // (uid, claim) is hashed with a separator: "uid-1"+"x" differs from "uid-1x"+""
  c.metadata.uid = "uid-1x";
  EXPECT_NE(jobVolumeName(a, "x"), jobVolumeName(c, ""));
}

TEST(Names, GeneratedClaimNameIsJobPvcPlusTwelveBase36CharactersPerUidAndSeq) {
  Job a = fixtures::job("train", {});
  const std::string first = generatedClaimName(a, 0);
  ASSERT_EQ(first.size(), std::string("train-pvc-").size() + 12);
  EXPECT_EQ(first.rfind("train-pvc-", 0), 0u);
  for (char c : first.substr(10)) EXPECT_TRUE((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z')) << first;
  EXPECT_EQ(generatedClaimName(a, 0), first);
  EXPECT_NE(generatedClaimName(a, 1), first);
  Job b = a;
  b.metadata.uid = "uid-2";
  EXPECT_NE(generatedClaimName(b, 0), first);
}

TEST(Names, OwnerReferenceIsVolcanoJobController) {
  Job j = fixtures::job("train", {});
  OwnerReference ref = volcano::controllerRef(j);
  EXPECT_EQ(ref.apiVersion, "batch.volcano.sh/v1alpha1");
  EXPECT_EQ(ref.kind, "Job");
  EXPECT_EQ(ref.name, "train");
  EXPECT_EQ(ref.uid, "uid-1");
  EXPECT_TRUE(ref.controller);
  EXPECT_TRUE(ref.blockOwnerDeletion);
}

}  // namespace
}  // namespace jobhost
