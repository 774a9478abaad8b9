// Unit tests of container environment resolution: valueFrom (ConfigMap, Secret, fieldRef,
// resourceFieldRef), envFrom, $(VAR) expansion in env, command and args, and missing references.
#include <gtest/gtest.h>

#include "host/cluster/local/container_env.h"

namespace jobhost::local {
namespace {

std::string valueOf(const std::vector<std::pair<std::string, std::string>>& env, const std::string& name) {
  for (const auto& [n, v] : env)
    if (n == name) return v;
  return "<unset>";
}

class ContainerEnvTest : public ::testing::Test {
 protected:
  void SetUp() override {
    pod_.metadata.name = "job-w-1";
    pod_.metadata.namespace_ = "ns";
    pod_.metadata.annotations["volcano.sh/job-retry-count"] = "2";
    pod_.metadata.labels["team"] = "ml";
    cm_.metadata.name = "job-svc";
    cm_.data = {{"VC_W_HOSTS", "a,b"}, {"K", "v"}};
    secret_.metadata.name = "creds";
    secret_.data = {{"token", "s3cret"}};
    in_.pod = &pod_;
    in_.podIP = "127.4.0.2";
    in_.nodeName = "box";
    in_.nodeCapacity = Resources{4000, 8LL << 30, 0};
    in_.objects.configMap = [this](const std::string& n) { return n == cm_.metadata.name ? std::optional(cm_) : std::nullopt; };
    in_.objects.secret = [this](const std::string& n) { return n == secret_.metadata.name ? std::optional(secret_) : std::nullopt; };
    in_.base = {{"PATH", "/usr/bin:/bin"}, {"HOSTNAME", "job-w-1"}};
  }
  static EnvVar from(const std::string& name, EnvVarSource source) {
    EnvVar v;
    v.name = name;
    v.valueFrom = std::move(source);
    return v;
  }
  Pod pod_;
  ConfigMap cm_;
  Secret secret_;
  EnvInputs in_;
};

TEST_F(ContainerEnvTest, ResolvesEveryKindOfReference) {
  Container c;
  c.resources.limits["cpu"] = *Quantity::parse("1500m");
  c.env = {EnvVar::literal("A", "1"),
           from("HOSTS", EnvVarSource{KeySelector{"job-svc", "VC_W_HOSTS", std::nullopt}, {}, {}, {}}),
           from("TOKEN", EnvVarSource{{}, KeySelector{"creds", "token", std::nullopt}, {}, {}}),
           from("IP", EnvVarSource{{}, {}, FieldSelector{"v1", "status.podIP"}, {}}),
           from("NAME", EnvVarSource{{}, {}, FieldSelector{"v1", "metadata.name"}, {}}),
           from("RETRY", EnvVarSource{{}, {}, FieldSelector{"v1", "metadata.annotations['volcano.sh/job-retry-count']"}, {}}),
           from("TEAM", EnvVarSource{{}, {}, FieldSelector{"v1", "metadata.labels['team']"}, {}}),
           from("CPUS", EnvVarSource{{}, {}, {}, ResourceFieldSelector{"", "limits.cpu", std::nullopt}}),
           from("MEM_MI", EnvVarSource{{}, {}, {}, ResourceFieldSelector{"", "limits.memory", Quantity::parse("1Mi")}}),
           EnvVar::literal("B", "$(A)-$(IP)-$$(A)-$(NOPE)")};
  auto env = containerEnv(c, in_);
  ASSERT_TRUE(env) << env.error();
  EXPECT_EQ(valueOf(*env, "PATH"), "/usr/bin:/bin");
  EXPECT_EQ(valueOf(*env, "HOSTS"), "a,b");
  EXPECT_EQ(valueOf(*env, "TOKEN"), "s3cret");
  EXPECT_EQ(valueOf(*env, "IP"), "127.4.0.2");
  EXPECT_EQ(valueOf(*env, "NAME"), "job-w-1");
  EXPECT_EQ(valueOf(*env, "RETRY"), "2");
  EXPECT_EQ(valueOf(*env, "TEAM"), "ml");
  EXPECT_EQ(valueOf(*env, "CPUS"), "2");     // 1500m rounded up
  EXPECT_EQ(valueOf(*env, "MEM_MI"), "8192");  // no limit: the machine's memory
  EXPECT_EQ(valueOf(*env, "B"), "1-127.4.0.2-$(A)-$(NOPE)");
}

TEST_F(ContainerEnvTest, EnvFromAddsEveryKeyAndEnvWins) {
  Container c;
  c.unknown = {{"envFrom", R"([{"configMapRef":{"name":"job-svc"},"prefix":"P_"},{"secretRef":{"name":"creds"}}])"}};
  c.env = {EnvVar::literal("P_K", "override")};
  auto env = containerEnv(c, in_);
  ASSERT_TRUE(env) << env.error();
  EXPECT_EQ(valueOf(*env, "P_VC_W_HOSTS"), "a,b");
  EXPECT_EQ(valueOf(*env, "token"), "s3cret");
  EXPECT_EQ(valueOf(*env, "P_K"), "override");
}

TEST_F(ContainerEnvTest, MissingReferencesFailUnlessOptional) {
  Container c;
  c.env = {from("X", EnvVarSource{KeySelector{"job-svc", "absent", std::nullopt}, {}, {}, {}})};
  auto env = containerEnv(c, in_);
  ASSERT_FALSE(env);
  EXPECT_EQ(env.error(), "env X: configmap \"job-svc\" has no key \"absent\"");
  c.env[0].valueFrom->configMapKeyRef->optional = true;
  env = containerEnv(c, in_);
  ASSERT_TRUE(env);
  EXPECT_EQ(valueOf(*env, "X"), "<unset>");
  c.env = {from("Y", EnvVarSource{{}, KeySelector{"nope", "k", std::nullopt}, {}, {}})};
  EXPECT_EQ(containerEnv(c, in_).error(), "env Y: secret \"nope\" not found");
}

TEST_F(ContainerEnvTest, CommandAndArgsAreExpanded) {
  Container c;
  c.command = {"sh", "-c"};
  c.args = {"echo $(GREETING) $(cat /etc/x) $$HOME"};
  const std::vector<std::pair<std::string, std::string>> env = {{"GREETING", "hi"}};
  EXPECT_EQ(containerArgv(c, env), (std::vector<std::string>{"sh", "-c", "echo hi $(cat /etc/x) $HOME"}));
}

}  // namespace
}  // namespace jobhost::local
