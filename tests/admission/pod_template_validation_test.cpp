// Kubernetes PodTemplate validation subset: one case per rule, with Kubernetes' exact texts.
// Paths are the PodTemplate's own (metadata.*, template.*), as Kubernetes reports them.
#include "host/admission/pod_template_validation.h"

#include <gtest/gtest.h>

#include "tests/workload/job_fixtures.h"

namespace jobhost {
namespace {

using fixtures::container;
using fixtures::resources;
using Texts = std::vector<std::string>;

const std::string kLabelRegex =
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and "
    "end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is "
    "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const std::string kSubdomainRegex =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must "
    "start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is "
    "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const std::string kQualifiedRegex =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "
    "character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
    "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const std::string kEnvRegex =
    "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must "
    "not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation "
    "is '[-._a-zA-Z][-._a-zA-Z0-9]*')";
const std::string kC0 = "template.spec.containers[0]";
const std::string kV0 = "template.spec.volumes[0]";

Volume emptyDir(std::string name) {
  Volume v;
  v.name = std::move(name);
  v.emptyDir.emplace();
  return v;
}

VolumeMount mount(std::string name, std::string path, std::string subPath = "") {
  VolumeMount m;
  m.name = std::move(name);
  m.mountPath = std::move(path);
  m.subPath = std::move(subPath);
  return m;
}

ContainerPort port(int32_t number, std::string name = "", int32_t hostPort = 0, std::string protocol = "") {
  ContainerPort p;
  p.containerPort = number;
  p.name = std::move(name);
  p.hostPort = hostPort;
  p.protocol = std::move(protocol);
  return p;
}

struct TemplateCase {
  const char* name;
  void (*change)(PodTemplateSpec&);
  Texts expected;
};

class PodTemplate : public testing::TestWithParam<TemplateCase> {};

TEST_P(PodTemplate, Errors) {
  PodTemplateSpec tpl;
  tpl.spec.containers.push_back(container("c", "img"));
  GetParam().change(tpl);
  Texts texts;
  for (const auto& e : k8s::validatePodTemplate(tpl, "task", "ns")) texts.push_back(e.text());
  EXPECT_EQ(texts, GetParam().expected);
}

INSTANTIATE_TEST_SUITE_P(
    Rules, PodTemplate,
    testing::Values(
        TemplateCase{"Valid", [](PodTemplateSpec&) {}, {}},
        TemplateCase{"NoContainers", [](PodTemplateSpec& t) { t.spec.containers.clear(); },
                     {"template.spec.containers: Required value"}},
        TemplateCase{"NameAndImageRequired", [](PodTemplateSpec& t) { t.spec.containers[0] = container("", ""); },
                     {kC0 + ".name: Required value", kC0 + ".image: Required value"}},
        TemplateCase{"ContainerNameLabel", [](PodTemplateSpec& t) { t.spec.containers[0].name = "C_1"; },
                     {kC0 + ".name: Invalid value: \"C_1\": " + kLabelRegex}},
        TemplateCase{"DuplicateContainer", [](PodTemplateSpec& t) { t.spec.containers.push_back(container("c", "img")); },
                     {"template.spec.containers[1].name: Duplicate value: \"c\""}},
        TemplateCase{"InitContainerNameClash", [](PodTemplateSpec& t) { t.spec.initContainers.push_back(container("c", "img")); },
                     {"template.spec.initContainers[0].name: Duplicate value: \"c\""}},
        TemplateCase{"Ports",
                     [](PodTemplateSpec& t) {
                       t.spec.containers[0].ports = {port(0, "HTTP"), port(70000, "http", 70000), port(80, "http", 0, "ICMP")};
                     },
                     {kC0 + ".ports[0].name: Invalid value: \"HTTP\": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)",
                      kC0 + ".ports[0].name: Invalid value: \"HTTP\": must contain at least one letter (a-z)",
                      kC0 + ".ports[0].containerPort: Required value",
                      kC0 + ".ports[1].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive",
                      kC0 + ".ports[1].hostPort: Invalid value: 70000: must be between 1 and 65535, inclusive",
                      kC0 + ".ports[2].name: Duplicate value: \"http\"",
                      kC0 + ".ports[2].protocol: Unsupported value: \"ICMP\": supported values: \"SCTP\", \"TCP\", \"UDP\""}},
        TemplateCase{"HostPortConflict",
                     [](PodTemplateSpec& t) {
                       t.spec.containers[0].ports = {port(80, "", 8080)};
                       t.spec.containers.push_back(container("d", "img"));
                       t.spec.containers[1].ports = {port(81, "", 8080)};
                     },
                     {"template.spec.containers[1].ports[0].hostPort: Duplicate value: \"TCP//8080\""}},
        TemplateCase{"HostNetworkHostPortMustMatch",
                     [](PodTemplateSpec& t) {
                       t.spec.hostNetwork = true;
                       t.spec.containers[0].ports = {port(80, "", 81), port(90)};
                     },
                     {kC0 + ".ports[0].hostPort: Invalid value: 81: must match `containerPort` when `hostNetwork` is true"}},
        TemplateCase{"VolumeNameAndMountNotFound",
                     [](PodTemplateSpec& t) {
                       t.spec.volumes = {emptyDir("Vol_1")};
                       t.spec.containers[0].volumeMounts = {mount("Vol_1", "/data")};
                     },
                     {kV0 + ".name: Invalid value: \"Vol_1\": " + kLabelRegex,
                      kC0 + ".volumeMounts[0].name: Not found: \"Vol_1\""}},
        TemplateCase{"DuplicateVolume", [](PodTemplateSpec& t) { t.spec.volumes = {emptyDir("v"), emptyDir("v")}; },
                     {"template.spec.volumes[1].name: Duplicate value: \"v\""}},
        TemplateCase{"VolumeWithoutSource", [](PodTemplateSpec& t) { t.spec.volumes = {Volume{"v", {}, {}, {}, {}, {}}}; },
                     {kV0 + ": Required value: must specify a volume type"}},
        TemplateCase{"TwoVolumeSources",
                     [](PodTemplateSpec& t) {
                       t.spec.volumes = {emptyDir("v")};
                       t.spec.volumes[0].configMap = ConfigMapVolumeSource{"cm", {}, std::nullopt, std::nullopt};
                     },
                     {kV0 + ".configMap: Forbidden: may not specify more than 1 volume type"}},
        TemplateCase{"UnmodelledSourceCounts",
                     [](PodTemplateSpec& t) {
                       t.spec.volumes = {emptyDir("v")};
                       t.spec.volumes[0].unknown.emplace_back("hostPath", "{\"path\":\"/x\"}");
                     },
                     {kV0 + ".hostPath: Forbidden: may not specify more than 1 volume type"}},
        TemplateCase{"ConfigMapSource",
                     [](PodTemplateSpec& t) {
                       t.spec.volumes = {Volume{"v", ConfigMapVolumeSource{"", {}, 01000, std::nullopt}, {}, {}, {}, {}}};
                     },
                     {kV0 + ".configMap.name: Required value",
                      kV0 + ".configMap.defaultMode: Invalid value: 512: must be a number between 0 and 0777 (octal), both inclusive"}},
        TemplateCase{"SecretItems",
                     [](PodTemplateSpec& t) {
                       SecretVolumeSource s{"s", {{"", "/abs", std::nullopt}, {"k", "../x", std::nullopt}, {"k", "..x", -1}}, std::nullopt, std::nullopt};
                       t.spec.volumes = {Volume{"v", {}, s, {}, {}, {}}};
                     },
                     {kV0 + ".secret.items[0].key: Required value",
                      kV0 + ".secret.items[0].path: Invalid value: \"/abs\": must be a relative path",
                      kV0 + ".secret.items[1].path: Invalid value: \"../x\": must not contain '..'",
                      kV0 + ".secret.items[2].path: Invalid value: \"..x\": must not start with '..'",
                      kV0 + ".secret.items[2].mode: Invalid value: -1: must be a number between 0 and 0777 (octal), both inclusive"}},
        TemplateCase{"ClaimNameRequired",
                     [](PodTemplateSpec& t) { t.spec.volumes = {Volume{"v", {}, {}, {}, PersistentVolumeClaimVolumeSource{}, {}}}; },
                     {kV0 + ".persistentVolumeClaim.claimName: Required value"}},
        TemplateCase{"Mounts",
                     [](PodTemplateSpec& t) {
                       t.spec.volumes = {emptyDir("v")};
                       t.spec.containers[0].volumeMounts = {mount("v", "/a"), mount("v", "/a", "/abs"), mount("", "")};
                     },
                     {kC0 + ".volumeMounts[1].mountPath: Invalid value: \"/a\": must be unique",
                      kC0 + ".volumeMounts.subPath: Invalid value: \"/abs\": must be a relative path",
                      kC0 + ".volumeMounts[2].name: Required value", kC0 + ".volumeMounts[2].name: Not found: \"\"",
                      kC0 + ".volumeMounts[2].mountPath: Required value"}},
        TemplateCase{"Env",
                     [](PodTemplateSpec& t) {
                       auto& env = t.spec.containers[0].env;
                       env = {EnvVar::literal("1X", "v"), EnvVar::literal("", "v"), EnvVar::literal("A", "v"), EnvVar::literal("B", ""),
                              EnvVar::literal("C", "")};
                       env[2].valueFrom = EnvVarSource{KeySelector{"cm", "k", std::nullopt}, {}, {}, {}};
                       env[3].valueFrom = EnvVarSource{};
                       env[4].valueFrom = EnvVarSource{KeySelector{"cm", "", std::nullopt}, KeySelector{"Bad_S", "k", std::nullopt}, {}, {}};
                     },
                     {kC0 + ".env[0].name: Invalid value: \"1X\": " + kEnvRegex, kC0 + ".env[1].name: Required value",
                      kC0 + ".env[1].name: Invalid value: \"\": " + kEnvRegex,
                      kC0 + ".env[2].valueFrom: Invalid value: \"\": may not be specified when `value` is not empty",
                      kC0 + ".env[3].valueFrom: Invalid value: \"\": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`",
                      kC0 + ".env[4].valueFrom.configMapKeyRef.key: Required value",
                      kC0 + ".env[4].valueFrom.secretKeyRef.name: Invalid value: \"Bad_S\": " + kSubdomainRegex,
                      kC0 + ".env[4].valueFrom: Invalid value: \"\": may not have more than one field specified at a time"}},
        TemplateCase{"EnvFieldRefs",
                     [](PodTemplateSpec& t) {
                       auto& env = t.spec.containers[0].env;
                       env = {EnvVar::literal("A", ""), EnvVar::literal("B", "")};
                       env[0].valueFrom = EnvVarSource{{}, {}, FieldSelector{"v1", ""}, {}};
                       env[1].valueFrom = EnvVarSource{{}, {}, {}, ResourceFieldSelector{"", "limits.gpu", std::nullopt}};
                     },
                     {kC0 + ".env[0].valueFrom.fieldRef.fieldPath: Required value",
                      kC0 + ".env[1].valueFrom.resourceFieldRef.resource: Unsupported value: \"limits.gpu\": supported values: "
                            "\"limits.cpu\", \"limits.ephemeral-storage\", \"limits.memory\", \"requests.cpu\", "
                            "\"requests.ephemeral-storage\", \"requests.memory\""}},
        TemplateCase{"RestartPolicy", [](PodTemplateSpec& t) { t.spec.restartPolicy = "Sometimes"; },
                     {"template.spec.restartPolicy: Unsupported value: \"Sometimes\": supported values: \"Always\", \"OnFailure\", \"Never\""}},
        TemplateCase{"DnsPolicy", [](PodTemplateSpec& t) { t.spec.dnsPolicy = "Cluster"; },
                     {"template.spec.dnsPolicy: Unsupported value: \"Cluster\": supported values: \"ClusterFirstWithHostNet\", "
                      "\"ClusterFirst\", \"Default\", \"None\""}},
        TemplateCase{"DnsPolicyNoneNeedsDnsConfig", [](PodTemplateSpec& t) { t.spec.dnsPolicy = "None"; },
                     {"template.spec.dnsConfig: Required value: must provide `dnsConfig` when `dnsPolicy` is None"}},
        TemplateCase{"RequestAboveLimit",
                     [](PodTemplateSpec& t) {
                       t.spec.containers[0].resources.requests = resources({{"cpu", "2"}, {"memory", "-1"}});
                       t.spec.containers[0].resources.limits = resources({{"cpu", "1"}});
                     },
                     {kC0 + ".resources.requests: Invalid value: \"2\": must be less than or equal to cpu limit of 1",
                      kC0 + ".resources.requests[memory]: Invalid value: \"-1\": must be greater than or equal to 0"}},
        TemplateCase{"ExtendedResources",
                     [](PodTemplateSpec& t) {
                       t.spec.containers[0].resources.requests = resources({{"nvidia.com/gpu", "1"}, {"example.com/fpga", "500m"}});
                       t.spec.containers[0].resources.limits = resources({{"nvidia.com/gpu", "2"}, {"example.com/fpga", "500m"}});
                     },
                     {kC0 + ".resources.limits[example.com/fpga]: Invalid value: \"500m\": must be an integer",
                      kC0 + ".resources.requests[example.com/fpga]: Invalid value: \"500m\": must be an integer",
                      kC0 + ".resources.requests: Invalid value: \"1\": must be equal to nvidia.com/gpu limit of 2"}},
        TemplateCase{"ExtendedResourceNeedsLimit",
                     [](PodTemplateSpec& t) { t.spec.containers[0].resources.requests = resources({{"nvidia.com/gpu", "1"}}); },
                     {kC0 + ".resources.limits: Required value: Limit must be set for non overcommitable resources"}},
        TemplateCase{"ResourceNames",
                     [](PodTemplateSpec& t) { t.spec.containers[0].resources.limits = resources({{"gpu", "1"}, {"pods", "1"}}); },
                     {kC0 + ".resources.limits[gpu]: Invalid value: \"gpu\": must be a standard resource type or fully qualified",
                      kC0 + ".resources.limits[gpu]: Invalid value: \"gpu\": must be a standard resource for containers",
                      kC0 + ".resources.limits[pods]: Invalid value: \"pods\": must be a standard resource for containers"}},
        TemplateCase{"HugePagesNeedCpuOrMemory",
                     [](PodTemplateSpec& t) {
                       t.spec.containers[0].resources.requests = resources({{"hugepages-2Mi", "4Mi"}});
                       t.spec.containers[0].resources.limits = resources({{"hugepages-2Mi", "4Mi"}});
                     },
                     {kC0 + ".resources: Forbidden: HugePages require cpu or memory"}},
        TemplateCase{"Metadata",
                     [](PodTemplateSpec& t) {
                       t.metadata.labels = {{"bad key", "-v"}};
                       t.metadata.annotations = {{"A/B/C", "x"}, {"Upper.Case/Key", "ok"}};
                     },
                     {"template.labels: Invalid value: \"bad key\": name part " + kQualifiedRegex,
                      "template.labels: Invalid value: \"-v\": a valid label must be an empty string or consist of alphanumeric "
                      "characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or "
                      "'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
                      "template.annotations: Invalid value: \"A/B/C\": a valid label key " + kQualifiedRegex +
                          " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"}},
        TemplateCase{"HostnameSubdomainPriorityClass",
                     [](PodTemplateSpec& t) {
                       t.spec.hostname = "Bad_Host";
                       t.spec.subdomain = "ok";
                       t.spec.priorityClassName = "Bad_P";
                     },
                     {"template.spec.hostname: Invalid value: \"Bad_Host\": " + kLabelRegex,
                      "template.spec.priorityClassName: Invalid value: \"Bad_P\": " + kSubdomainRegex}},
        TemplateCase{"InitContainerProbes",
                     [](PodTemplateSpec& t) {
                       t.spec.initContainers = {container("i", "img"), container("s", "img")};
                       t.spec.initContainers[0].unknown = {{"readinessProbe", "{}"}, {"lifecycle", "{}"}};
                       t.spec.initContainers[1].unknown = {{"restartPolicy", "\"Always\""}, {"readinessProbe", "{}"}};
                     },
                     {"template.spec.initContainers[0].lifecycle: Forbidden: may not be set for init containers without restartPolicy=Always",
                      "template.spec.initContainers[0].readinessProbe: Forbidden: may not be set for init containers without restartPolicy=Always"}}),
    [](const testing::TestParamInfo<TemplateCase>& info) { return info.param.name; });

TEST(PodTemplateMeta, NameAndNamespace) {
  PodTemplateSpec tpl;
  tpl.spec.containers.push_back(container("c", "img"));
  auto texts = [&](std::string_view name, std::string_view ns) {
    Texts out;
    for (const auto& e : k8s::validatePodTemplate(tpl, name, ns)) out.push_back(e.text());
    return out;
  };
  EXPECT_EQ(texts("Bad", "ns"), Texts{"metadata.name: Invalid value: \"Bad\": " + kSubdomainRegex});
  EXPECT_EQ(texts("", "ns"), Texts{"metadata.name: Required value: name or generateName is required"});
  EXPECT_EQ(texts("ok", "Bad_ns"), Texts{"metadata.namespace: Invalid value: \"Bad_ns\": " + kLabelRegex});
  EXPECT_EQ(texts("ok", ""), Texts{});
}

}  // namespace
}  // namespace jobhost
