// Upsert helpers (Trainer's matching rules) and the env ledger's conflict reports.
#include "jobhost/runtime_info.h"

#include <gtest/gtest.h>

namespace jobhost {
namespace {

TEST(Upsert, EnvByNameReplacesInPlace) {
  std::vector<EnvVar> env{EnvVar::literal("A", "1"), EnvVar::literal("B", "2")};
  EXPECT_TRUE(upsertEnv(env, EnvVar::literal("A", "9")));
  EXPECT_FALSE(upsertEnv(env, EnvVar::literal("C", "3")));
  ASSERT_EQ(env.size(), 3u);
  EXPECT_EQ(env[0].value, "9");
  EXPECT_EQ(env[2].name, "C");
}

TEST(Upsert, PortByNumberOrName) {
  std::vector<ContainerPort> ports{{"http", 80, "", 0, ""}, {"ssh", 22, "", 0, ""}};
  EXPECT_TRUE(upsertPort(ports, {"web", 80, "", 0, ""}));
  EXPECT_TRUE(upsertPort(ports, {"ssh", 2222, "", 0, ""}));
  EXPECT_FALSE(upsertPort(ports, {"", 9000, "", 0, ""}));
  ASSERT_EQ(ports.size(), 3u);
  EXPECT_EQ(ports[0].name, "web");
  EXPECT_EQ(ports[1].containerPort, 2222);
}

TEST(Upsert, VolumesByNameMountsByPath) {
  std::vector<Volume> vols(1);
  vols[0].name = "data";
  Volume v;
  v.name = "data";
  v.emptyDir = EmptyDirVolumeSource{};
  EXPECT_TRUE(upsertVolume(vols, v));
  EXPECT_TRUE(vols[0].emptyDir.has_value());
  std::vector<VolumeMount> mounts{{"a", "/etc/x", "", false, {}}};
  EXPECT_TRUE(upsertVolumeMount(mounts, {"b", "/etc/x", "", true, {}}));
  EXPECT_FALSE(upsertVolumeMount(mounts, {"b", "/etc/y", "", true, {}}));
  EXPECT_EQ(mounts[0].name, "b");
  EXPECT_EQ(mounts.size(), 2u);
}

TEST(EnvLedger, ReportsTwoPluginsSettingDifferentValues) {
  EnvLedger ledger;
  Container c;
  c.name = "main";
  ledger.setActor("torch");
  ledger.setEnv("task worker", c, EnvVar::literal("MASTER_PORT", "23456"));
  ledger.setActor("custom");
  ledger.setEnv("task worker", c, EnvVar::literal("MASTER_PORT", "29500"));
  ASSERT_EQ(ledger.conflicts().size(), 1u);
  EXPECT_EQ(ledger.conflicts()[0],
            "env var MASTER_PORT in container \"main\" of task worker: plugin \"custom\" sets \"29500\" but "
            "plugin \"torch\" set \"23456\"; configure one of them not to set it");
  EXPECT_EQ(c.env.size(), 1u);
  EXPECT_EQ(c.env[0].value, "29500");
}

TEST(EnvLedger, SameValueOrSamePluginIsNoConflict) {
  EnvLedger ledger;
  Container c;
  c.name = "main";
  ledger.setActor("a");
  ledger.setEnv("s", c, EnvVar::literal("X", "1"));
  ledger.setEnv("s", c, EnvVar::literal("X", "2"));  // same plugin overrides itself
  ledger.setActor("b");
  ledger.setEnv("s", c, EnvVar::literal("X", "2"));  // same value
  ledger.setEnv("other", c, EnvVar::literal("X", "3"));  // other scope
  EXPECT_TRUE(ledger.conflicts().empty());
}

}  // namespace
}  // namespace jobhost
