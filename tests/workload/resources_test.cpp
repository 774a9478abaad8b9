// Pod requests/limits aggregation (containers, init containers, sidecars, limit defaulting) and the
// Kubernetes quota usage keys Volcano's minResources is made of.
#include "host/workload/resources.h"

#include <gtest/gtest.h>

#include "tests/workload/job_fixtures.h"

namespace jobhost {
namespace {

using fixtures::container;
using fixtures::resources;

Container withRequests(std::string name, ResourceList requests, ResourceList limits = {}) {
  Container c = container(std::move(name));
  c.resources.requests = std::move(requests);
  c.resources.limits = std::move(limits);
  return c;
}

Container sidecar(std::string name, ResourceList requests) {
  Container c = withRequests(std::move(name), std::move(requests));
  c.unknown.emplace_back("restartPolicy", "\"Always\"");
  return c;
}

TEST(PodRequests, SumsContainers) {
  PodSpec spec;
  spec.containers = {withRequests("a", resources({{"cpu", "100m"}, {"memory", "1Gi"}})),
                     withRequests("b", resources({{"cpu", "200m"}}))};
  EXPECT_EQ(podRequests(spec), resources({{"cpu", "300m"}, {"memory", "1Gi"}}));
}

TEST(PodRequests, InitContainersRaiseTheMaximumPerResource) {
  PodSpec spec;
  spec.containers = {withRequests("a", resources({{"cpu", "300m"}, {"memory", "2Gi"}}))};
  spec.initContainers = {withRequests("i1", resources({{"cpu", "1"}})),
                         withRequests("i2", resources({{"memory", "1Gi"}, {"nvidia.com/gpu", "1"}}))};
  EXPECT_EQ(podRequests(spec), resources({{"cpu", "1"}, {"memory", "2Gi"}, {"nvidia.com/gpu", "1"}}));
}

TEST(PodRequests, RestartableInitContainersAddUpLikeSidecars) {
  PodSpec spec;
  spec.containers = {withRequests("a", resources({{"cpu", "200m"}}))};
  spec.initContainers = {sidecar("s", resources({{"cpu", "100m"}})), withRequests("i", resources({{"cpu", "1"}}))};
  // main 200m + sidecar 100m = 300m; the init container runs next to the sidecar: 1 + 100m.
  EXPECT_EQ(podRequests(spec), resources({{"cpu", "1100m"}}));
  spec.initContainers[1].resources.requests = resources({{"cpu", "50m"}});
  EXPECT_EQ(podRequests(spec), resources({{"cpu", "300m"}}));
}

TEST(PodRequests, LimitsDefaultRequestsOnlyAsAPod) {
  PodSpec spec;
  spec.containers = {withRequests("a", resources({{"memory", "1Gi"}}), resources({{"cpu", "2"}, {"memory", "4Gi"}}))};
  EXPECT_EQ(podRequests(spec, LimitDefaulting::Apply), resources({{"cpu", "2"}, {"memory", "1Gi"}}));
  EXPECT_EQ(podRequests(spec, LimitDefaulting::Skip), resources({{"memory", "1Gi"}}));
  EXPECT_EQ(podLimits(spec), resources({{"cpu", "2"}, {"memory", "4Gi"}}));
}

// resource.PodRequests adds spec.overhead (inserting resources no container requests);
// resource.PodLimits adds it only to resources that have a limit.
TEST(PodRequests, OverheadAddsToRequestsAndToLimitsThatExist) {
  PodSpec spec;
  spec.containers = {withRequests("a", resources({{"cpu", "100m"}}), resources({{"cpu", "200m"}}))};
  spec.unknown = {{"overhead", R"({"cpu":"250m","memory":"120Mi"})"}};
  EXPECT_EQ(podOverhead(spec), resources({{"cpu", "250m"}, {"memory", "120Mi"}}));
  EXPECT_EQ(podRequests(spec), resources({{"cpu", "350m"}, {"memory", "120Mi"}}));
  EXPECT_EQ(aggregateContainerRequests(spec), resources({{"cpu", "100m"}}));
  EXPECT_EQ(podLimits(spec), resources({{"cpu", "450m"}}));
  EXPECT_EQ(podQuotaUsage(spec), resources({{"count/pods", "1"}, {"cpu", "350m"}, {"limits.cpu", "450m"},
                                            {"memory", "120Mi"}, {"pods", "1"}, {"requests.cpu", "350m"},
                                            {"requests.memory", "120Mi"}}));
  spec.unknown = {{"overhead", "null"}};
  EXPECT_EQ(podRequests(spec), resources({{"cpu", "100m"}}));
}

TEST(PodQuotaUsage, CpuRequestGivesCpuRequestsCpuPodsCountPods) {
  PodSpec spec;
  spec.containers = {withRequests("a", resources({{"cpu", "100m"}}))};
  EXPECT_EQ(podQuotaUsage(spec), resources({{"count/pods", "1"}, {"cpu", "100m"}, {"pods", "1"}, {"requests.cpu", "100m"}}));
}

TEST(PodQuotaUsage, AllKeys) {
  PodSpec spec;
  spec.containers = {withRequests("a",
                                  resources({{"cpu", "1"}, {"memory", "1Gi"}, {"ephemeral-storage", "10Gi"},
                                             {"hugepages-2Mi", "4Mi"}, {"nvidia.com/gpu", "2"}}),
                                  resources({{"cpu", "2"}, {"memory", "2Gi"}, {"ephemeral-storage", "20Gi"},
                                             {"hugepages-2Mi", "4Mi"}, {"nvidia.com/gpu", "2"}}))};
  EXPECT_EQ(podQuotaUsage(spec), resources({{"count/pods", "1"},
                                            {"pods", "1"},
                                            {"cpu", "1"},
                                            {"requests.cpu", "1"},
                                            {"limits.cpu", "2"},
                                            {"memory", "1Gi"},
                                            {"requests.memory", "1Gi"},
                                            {"limits.memory", "2Gi"},
                                            {"ephemeral-storage", "10Gi"},
                                            {"requests.ephemeral-storage", "10Gi"},
                                            {"limits.ephemeral-storage", "20Gi"},
                                            {"hugepages-2Mi", "4Mi"},
                                            {"requests.hugepages-2Mi", "4Mi"},
                                            {"requests.nvidia.com/gpu", "2"},
                                            {"nvidia.com/gpu", "2"}}));
}

TEST(PodQuotaUsage, TemplateSemanticsLimitsDoNotBecomeRequests) {
  PodSpec spec;
  spec.containers = {withRequests("a", {}, resources({{"cpu", "2"}}))};
  EXPECT_EQ(podQuotaUsage(spec), resources({{"count/pods", "1"}, {"pods", "1"}, {"limits.cpu", "2"}}));
}

TEST(PodQuotaUsage, EmptyPodStillCountsOnePod) {
  EXPECT_EQ(podQuotaUsage(PodSpec{}), resources({{"count/pods", "1"}, {"pods", "1"}}));
}

TEST(RestartableInit, OnlyRestartPolicyAlways) {
  Container c = container("x");
  EXPECT_FALSE(isRestartableInitContainer(c));
  c.unknown.emplace_back("restartPolicy", "\"OnFailure\"");
  EXPECT_FALSE(isRestartableInitContainer(c));
  EXPECT_TRUE(isRestartableInitContainer(sidecar("s", {})));
}

}  // namespace
}  // namespace jobhost
