// Kubernetes name formats and resource-name classes, with Kubernetes' exact messages.
// Messages use apimachinery's content-package wording ("no more than N bytes").
#include "host/workload/k8s_names.h"

#include <gtest/gtest.h>

#include "host/workload/resource_names.h"

namespace jobhost::k8s {
namespace {

using Msgs = std::vector<std::string>;

const std::string kQualifiedRegex =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric "
    "character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is "
    "'([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const std::string kLabelRegex =
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and "
    "end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is "
    "'[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const std::string kSubdomainRegex =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must "
    "start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is "
    "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

TEST(QualifiedName, AcceptsNamesAndPrefixedNames) {
  for (const std::string& ok : Msgs{"a", "MyName", "my.name", "123-abc", "a_b", "example.com/MyName", std::string(63, 'x')})
    EXPECT_EQ(isQualifiedName(ok), Msgs{}) << ok;
}

TEST(QualifiedName, Messages) {
  EXPECT_EQ(isQualifiedName(""), (Msgs{"name part must be non-empty", "name part " + kQualifiedRegex}));
  EXPECT_EQ(isQualifiedName("-a"), Msgs{"name part " + kQualifiedRegex});
  EXPECT_EQ(isQualifiedName(std::string(64, 'a')), Msgs{"name part must be no more than 63 bytes"});
  EXPECT_EQ(isQualifiedName("/a"), Msgs{"prefix part must be non-empty"});
  EXPECT_EQ(isQualifiedName("Bad_/a"), Msgs{"prefix part " + kSubdomainRegex});
  EXPECT_EQ(isQualifiedName("a/b/c"),
            Msgs{"a valid label key " + kQualifiedRegex +
                 " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"});
}

TEST(Dns1123, LabelAndSubdomain) {
  EXPECT_EQ(isDNS1123Label("worker-0"), Msgs{});
  EXPECT_EQ(isDNS1123Label("Worker"), Msgs{kLabelRegex});
  EXPECT_EQ(isDNS1123Label("a.b"), Msgs{"must not contain dots"});
  EXPECT_EQ(isDNS1123Label(std::string(64, 'a')), Msgs{"must be no more than 63 bytes"});
  EXPECT_EQ(isDNS1123Label(""), Msgs{kLabelRegex});
  EXPECT_EQ(isDNS1123Subdomain("a.b-c.d"), Msgs{});
  EXPECT_EQ(isDNS1123Subdomain("a..b"), Msgs{kSubdomainRegex});
  EXPECT_EQ(isDNS1123Subdomain(std::string(254, 'a')), Msgs{"must be no more than 253 bytes"});
}

TEST(PortName, IanaServiceNameRules) {
  EXPECT_EQ(isValidPortName("http-2"), Msgs{});
  EXPECT_EQ(isValidPortName("123"), Msgs{"must contain at least one letter (a-z)"});
  EXPECT_EQ(isValidPortName("a--b"), Msgs{"must not contain consecutive hyphens"});
  EXPECT_EQ(isValidPortName("-ab"), Msgs{"must not begin or end with a hyphen"});
  EXPECT_EQ(isValidPortName("Http"), Msgs{"must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)"});
  EXPECT_EQ(isValidPortName("abcdefghijklmnop"), Msgs{"must be no more than 15 bytes"});
  EXPECT_EQ(isValidPortNum(0), Msgs{"must be between 1 and 65535, inclusive"});
  EXPECT_EQ(isValidPortNum(65536), Msgs{"must be between 1 and 65535, inclusive"});
  EXPECT_EQ(isValidPortNum(65535), Msgs{});
}

TEST(EnvVarName, KubernetesRules) {
  const std::string regex =
      "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and "
      "must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for "
      "validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')";
  EXPECT_EQ(isEnvVarName("MY_VAR.x-1"), Msgs{});
  EXPECT_EQ(isEnvVarName("1VAR"), Msgs{regex});
  EXPECT_EQ(isEnvVarName("A=B"), Msgs{regex});
  EXPECT_EQ(isEnvVarName(".."), Msgs{"must not be '..'"});
  EXPECT_EQ(isEnvVarName("..a"), Msgs{"must not start with '..'"});
  EXPECT_EQ(isEnvVarName(""), Msgs{regex});
}

TEST(ConfigKeyAndLabelValue, Rules) {
  EXPECT_EQ(isConfigMapKey("key.name_1"), Msgs{});
  EXPECT_EQ(isConfigMapKey("a/b"),
            Msgs{"a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  "
                 "or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')"});
  EXPECT_EQ(isLabelValue(""), Msgs{});
  EXPECT_EQ(isLabelValue("v1.2"), Msgs{});
  EXPECT_EQ(isLabelValue("-x"),
            Msgs{"a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and "
                 "must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', "
                 "regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"});
}

TEST(ResourceNames, Classes) {
  EXPECT_TRUE(isNativeResource("cpu"));
  EXPECT_TRUE(isNativeResource("example.kubernetes.io/thing"));
  EXPECT_FALSE(isNativeResource("nvidia.com/gpu"));
  EXPECT_TRUE(isExtendedResourceName("nvidia.com/gpu"));
  EXPECT_FALSE(isExtendedResourceName("cpu"));
  EXPECT_FALSE(isExtendedResourceName("requests.nvidia.com/gpu"));
  EXPECT_TRUE(isHugePageResourceName("hugepages-2Mi"));
  EXPECT_TRUE(isOvercommitAllowed("memory"));
  EXPECT_FALSE(isOvercommitAllowed("hugepages-2Mi"));
  EXPECT_FALSE(isOvercommitAllowed("nvidia.com/gpu"));
  EXPECT_TRUE(isStandardContainerResourceName("ephemeral-storage"));
  EXPECT_FALSE(isStandardContainerResourceName("pods"));
  EXPECT_TRUE(isStandardResourceName("pods"));
  EXPECT_TRUE(isStandardResourceName("requests.hugepages-1Gi"));
  EXPECT_FALSE(isStandardResourceName("gpu"));
  EXPECT_TRUE(isIntegerResourceName("nvidia.com/gpu"));
  EXPECT_TRUE(isIntegerResourceName("pods"));
  EXPECT_FALSE(isIntegerResourceName("cpu"));
}

}  // namespace
}  // namespace jobhost::k8s
