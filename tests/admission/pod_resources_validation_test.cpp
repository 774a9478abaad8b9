// Pod-level resources (template.spec.resources, PodLevelResources): every Kubernetes rule with its
// exact text and place in ValidatePodTemplate, and Volcano's admit_job_test cases verbatim.
#include <gtest/gtest.h>

#include "host/admission/admission.h"
#include "host/admission/pod_template_validation.h"
#include "tests/admission/admission_test_util.h"
#include "tests/workload/job_fixtures.h"

namespace jobhost {
namespace {

using fixtures::container;
using fixtures::resources;
using testing_admission::Errors;
using testing_admission::errorsOf;
using testing_admission::standardConfig;
using Texts = std::vector<std::string>;

const std::string kR = "template.spec.resources";

Container withResources(std::string name, ResourceList requests, ResourceList limits = {}) {
  Container c = container(std::move(name), "busybox:1.24");
  c.resources.requests = std::move(requests);
  c.resources.limits = std::move(limits);
  return c;
}

Texts texts(const PodTemplateSpec& tpl) {
  Texts out;
  for (const auto& e : k8s::validatePodTemplate(tpl, "task", "ns")) out.push_back(e.text());
  return out;
}

// One regular container requesting `cpu`, and the pod-level resources as the decoder keeps them.
PodTemplateSpec podWith(const std::string& resourcesJson, const char* cpu = "1") {
  PodTemplateSpec tpl;
  tpl.spec.containers = {withResources("c", resources({{"cpu", cpu}}))};
  tpl.spec.unknown = {{"resources", resourcesJson}};
  return tpl;
}

// --- Volcano's TestValidateJobCreate cases with PodLevelResourcesEnabled, verbatim ---

Job volcanoJob(const std::string& name, PodSpec spec) {
  TaskSpec task = fixtures::task("task-1", 1);
  task.template_.metadata.labels = {{"name", "test"}};
  task.template_.spec = std::move(spec);
  Job job = fixtures::job(name, {task});
  job.metadata.namespace_ = "test";
  job.spec.minAvailable = 1;
  job.spec.policies = {fixtures::eventPolicy("PodEvicted", "RestartTask")};
  return job;
}

TEST(PodLevelResources, VolcanoValidJobWithPodLevelResourcesIsAllowed) {
  PodSpec spec;
  spec.unknown = {{"resources", R"({"requests":{"cpu":"4","memory":"8Gi","hugepages-1Mi":"2Gi"},)"
                                R"("limits":{"cpu":"4","memory":"8Gi","hugepages-1Mi":"2Gi"}})"}};
  const ResourceList each = resources({{"cpu", "2"}, {"memory", "4Gi"}, {"hugepages-1Mi", "1Gi"}});
  spec.containers = {withResources("fake-name", each, each)};
  AdmissionResult r = validateJobCreate(volcanoJob("valid-job-with-pod-level-resources", spec), standardConfig());
  EXPECT_TRUE(r.allowed) << r.message;
  EXPECT_TRUE(r.errors.empty());
}

TEST(PodLevelResources, VolcanoPodRequestsBelowAggregateContainerRequests) {
  PodSpec spec;
  spec.unknown = {{"resources", R"({"requests":{"cpu":"2","hugepages-1Mi":"2Gi","hugepages-1Ki":"2Gi"},)"
                                R"("limits":{"cpu":"2","hugepages-1Mi":"2Gi","hugepages-1Ki":"2Gi"}})"}};
  spec.initContainers = {withResources("fake-name-0", resources({{"cpu", "2"}}))};
  spec.containers = {withResources("fake-name-1", resources({{"cpu", "2"}})),
                     withResources("fake-name-2", resources({{"cpu", "2"}}))};
  AdmissionResult r = validateJobCreate(volcanoJob("invalid-job-with-pod-level-resources", spec), standardConfig());
  EXPECT_FALSE(r.allowed);
  EXPECT_EQ(r.message,
            "spec.task[0].template.spec.resources.requests[cpu]: Invalid value: \"2\": must be greater than or equal to "
            "aggregate container requests of 4.");
  EXPECT_EQ(errorsOf(r), (Errors{{"spec.tasks[0].template.spec.resources.requests[cpu]",
                                  "Invalid value: \"2\": must be greater than or equal to aggregate container requests of 4"}}));
}

TEST(PodLevelResources, VolcanoPodRequestsAboveLimits) {
  PodSpec spec;
  spec.unknown = {{"resources", R"({"requests":{"cpu":"6"},"limits":{"cpu":"4"}})"}};
  const ResourceList two = resources({{"cpu", "2"}});
  spec.containers = {withResources("fake-name-1", two, two), withResources("fake-name-2", two, two)};
  AdmissionResult r = validateJobCreate(volcanoJob("invalid-job-with-pod-level-resources", spec), standardConfig());
  EXPECT_FALSE(r.allowed);
  EXPECT_EQ(r.message,
            "spec.task[0].template.spec.resources.requests: Invalid value: \"6\": must be less than or equal to cpu "
            "limit of 4.");
  EXPECT_EQ(errorsOf(r), (Errors{{"spec.tasks[0].template.spec.resources.requests",
                                  "Invalid value: \"6\": must be less than or equal to cpu limit of 4"}}));
}

// --- Each rule on its own ---

TEST(PodLevelResources, AbsentOrNullResourcesAreNotChecked) {
  PodTemplateSpec tpl;
  tpl.spec.containers = {withResources("c", resources({{"cpu", "1"}}))};
  EXPECT_EQ(texts(tpl), Texts{});
  tpl.spec.unknown = {{"resources", "null"}};
  EXPECT_EQ(texts(tpl), Texts{});
}

TEST(PodLevelResources, AMissingPodRequestCountsAsZero) {
  // An empty (non-null) resources is validated; a template is not defaulted, so there is no request.
  EXPECT_EQ(texts(podWith("{}")),
            Texts{kR + ".requests[cpu]: Invalid value: \"0\": must be greater than or equal to aggregate container "
                       "requests of 1"});
  EXPECT_EQ(texts(podWith(R"({"limits":{"cpu":"2"}})")),
            Texts{kR + ".requests[cpu]: Invalid value: \"0\": must be greater than or equal to aggregate container "
                       "requests of 1"});
  EXPECT_EQ(texts(podWith(R"({"requests":{"cpu":"1"}})")), Texts{});
}

TEST(PodLevelResources, AggregateCountsSidecarsAlongsideAndTheLargestInitContainer) {
  PodTemplateSpec tpl = podWith(R"({"requests":{"cpu":"3","memory":"1Gi"}})");
  Container sidecar = withResources("sidecar", resources({{"cpu", "1"}}));
  sidecar.unknown = {{"restartPolicy", "\"Always\""}};
  tpl.spec.initContainers = {sidecar, withResources("init", resources({{"cpu", "3"}, {"memory", "2Gi"}}))};
  // Regular 1 + sidecar 1 = 2; the init container runs beside the sidecar: 3 + 1 = 4.
  EXPECT_EQ(texts(tpl),
            (Texts{kR + ".requests[cpu]: Invalid value: \"3\": must be greater than or equal to aggregate container "
                        "requests of 4",
                   kR + ".requests[memory]: Invalid value: \"1Gi\": must be greater than or equal to aggregate "
                        "container requests of 2Gi"}));
}

TEST(PodLevelResources, ARegularContainersLimitMayNotExceedThePodLimit) {
  PodTemplateSpec tpl = podWith(R"({"requests":{"cpu":"2"},"limits":{"cpu":"2","memory":"1Gi"}})");
  tpl.spec.containers = {withResources("a", resources({{"cpu", "1"}}), resources({{"cpu", "1"}, {"memory", "2Gi"}})),
                         withResources("b", resources({{"cpu", "1"}}), resources({{"cpu", "3"}, {"nvidia.com/gpu", "1"}}))};
  tpl.spec.containers[1].resources.requests["nvidia.com/gpu"] = fixtures::qty("1");
  EXPECT_EQ(texts(tpl),
            (Texts{kR + ".requests[nvidia.com/gpu]: Invalid value: \"0\": must be greater than or equal to aggregate "
                        "container requests of 1",
                   kR + ".containers[0][memory].limits: Invalid value: \"2Gi\": must be less than or equal to pod limits "
                        "of 1Gi",
                   kR + ".containers[1][cpu].limits: Invalid value: \"3\": must be less than or equal to pod limits of 2"}));
}

TEST(PodLevelResources, OnlyCpuMemoryAndHugePagesAreSupportedAtPodLevel) {
  EXPECT_EQ(texts(podWith(R"({"requests":{"cpu":"1","ephemeral-storage":"1Gi","nvidia.com/gpu":"1"},)"
                          R"("limits":{"nvidia.com/gpu":"1"}})")),
            (Texts{kR + ".limits[nvidia.com/gpu]: Unsupported value: \"nvidia.com/gpu\": supported values: \"cpu\", "
                        "\"hugepages-\", \"memory\"",
                   kR + ".requests[ephemeral-storage]: Unsupported value: \"ephemeral-storage\": supported values: "
                        "\"cpu\", \"hugepages-\", \"memory\"",
                   kR + ".requests[nvidia.com/gpu]: Unsupported value: \"nvidia.com/gpu\": supported values: \"cpu\", "
                        "\"hugepages-\", \"memory\""}));
}

TEST(PodLevelResources, ANameCheckStopsAtItsFirstFailure) {
  EXPECT_EQ(texts(podWith(R"({"requests":{"cpu":"1","gpu":"1","bad name":"1"}})")),
            (Texts{kR + ".requests[bad name]: Invalid value: \"bad name\": name part " + testing_admission::kQualifiedRegex,
                   kR + ".requests[gpu]: Invalid value: \"gpu\": must be a standard resource type or fully qualified"}));
}

TEST(PodLevelResources, QuantitiesHugePagesAndRequestsAgainstLimits) {
  EXPECT_EQ(texts(podWith(R"({"requests":{"cpu":"2","memory":"-1"},"limits":{"cpu":"1"}})")),
            (Texts{kR + ".requests: Invalid value: \"2\": must be less than or equal to cpu limit of 1",
                   kR + ".requests[memory]: Invalid value: \"-1\": must be greater than or equal to 0"}));
  EXPECT_EQ(texts(podWith(R"({"requests":{"cpu":"1","hugepages-2Mi":"3Mi"},"limits":{"hugepages-2Mi":"4Mi"}})")),
            (Texts{kR + ".requests: Invalid value: \"3Mi\": must be equal to hugepages-2Mi limit of 4Mi",
                   kR + ".requests[hugepages-2Mi]: Invalid value: \"3Mi\": 3Mi is not positive integer multiple of "
                        "hugepages-2Mi"}));
  EXPECT_EQ(texts(podWith(R"({"requests":{"hugepages-2Mi":"4Mi"}})", "0")),
            (Texts{kR + ".limits: Required value: Limit must be set for non overcommitable resources",
                   kR + ": Forbidden: HugePages require cpu or memory"}));
}

TEST(PodLevelResources, ClaimsAreForbiddenAndMustNameAPodResourceClaim) {
  EXPECT_EQ(texts(podWith(R"({"requests":{"cpu":"1"},"claims":[]})")),
            Texts{kR + ".claims: Forbidden: claims cannot be set for Resources at pod-level"});
  PodTemplateSpec tpl = podWith(R"({"requests":{"cpu":"1"},"claims":[{"name":"gpu"},{"name":""},)"
                                R"({"name":"gpu"},{"name":"fpga","request":"Big_One"}]})");
  EXPECT_EQ(texts(tpl),
            (Texts{kR + ".claims: Forbidden: claims cannot be set for Resources at pod-level",
                   kR + ".claims[0]: Not found: \"gpu\": must be one of the names in pod.spec.resourceClaims which is empty",
                   kR + ".claims[1]: Required value",
                   kR + ".claims[2]: Duplicate value: \"gpu\"",
                   kR + ".claims[2]: Not found: \"gpu\": must be one of the names in pod.spec.resourceClaims which is empty",
                   kR + ".claims[3].request: Invalid value: \"Big_One\": a lowercase RFC 1123 label must consist of lower "
                        "case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. "
                        "'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
                   kR + ".claims[3]: Not found: \"fpga\": must be one of the names in pod.spec.resourceClaims which is "
                        "empty"}));
  tpl.spec.unknown = {{"resourceClaims", R"([{"name":"gpu"},{"name":"fpga"}])"},
                      {"resources", R"({"requests":{"cpu":"1"},"claims":[{"name":"gpu","request":"a"},{"name":"gpu"},)"
                                    R"({"name":"nic"}]})"}};
  EXPECT_EQ(texts(tpl),
            (Texts{kR + ".claims: Forbidden: claims cannot be set for Resources at pod-level",
                   kR + ".claims[1]: Duplicate value: \"gpu\"",
                   kR + ".claims[2]: Not found: \"nic\": must be one of the names in pod.spec.resourceClaims: fpga, gpu"}));
}

TEST(PodLevelResources, ComeAfterInitContainersAndBeforeHostNetworkPorts) {
  PodTemplateSpec tpl = podWith(R"({"requests":{"memory":"1Gi"}})");
  tpl.spec.initContainers = {container("init", "")};
  tpl.spec.hostNetwork = true;
  tpl.spec.containers[0].ports = {ContainerPort{"", 80, "", 81, ""}};
  EXPECT_EQ(texts(tpl),
            (Texts{"template.spec.initContainers[0].image: Required value",
                   kR + ".requests[cpu]: Invalid value: \"0\": must be greater than or equal to aggregate container "
                        "requests of 1",
                   "template.spec.containers[0].ports[0].hostPort: Invalid value: 81: must match `containerPort` when "
                   "`hostNetwork` is true"}));
}

TEST(PodLevelResources, ContainerHugePagesMustBeWholePages) {
  PodTemplateSpec tpl;
  tpl.spec.containers = {withResources("c", resources({{"cpu", "1"}, {"hugepages-2Mi", "3Mi"}}),
                                       resources({{"hugepages-2Mi", "3Mi"}}))};
  const std::string c0 = "template.spec.containers[0].resources";
  EXPECT_EQ(texts(tpl),
            (Texts{c0 + ".limits[hugepages-2Mi]: Invalid value: \"3Mi\": 3Mi is not positive integer multiple of "
                        "hugepages-2Mi",
                   c0 + ".requests[hugepages-2Mi]: Invalid value: \"3Mi\": 3Mi is not positive integer multiple of "
                        "hugepages-2Mi"}));
}

}  // namespace
}  // namespace jobhost
