// Registry tests: config-order loading, required vs optional, duplicates, a second Status plugin,
// per-point enabled/disabled lists, aliases, activation and per-job args.
#include "host/plugin/registry.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

namespace jobhost {
namespace {

HostConfig configFrom(const std::string& json) {
  auto c = parseHostConfig(json, std::string(JOBHOST_FIXTURE_DIR) + "/test-config.json");
  EXPECT_TRUE(c) << c.error();
  c->pluginPath = {JOBHOST_FIXTURE_DIR};
  return *c;
}

std::vector<std::string> names(const std::vector<const RegisteredPlugin*>& list) {
  std::vector<std::string> out;
  for (auto* p : list) out.push_back(p->names[0]);
  return out;
}

TEST(Registry, PointsFollowConfigOrder) {
  auto reg = Registry::load(configFrom(R"({"plugins":[{"name":"withargs"},{"name":"throwing"},{"name":"statusa"}],
                                           "extensionPoints":{"status":{"disabled":["throwing"]}}})"));
  ASSERT_TRUE(reg) << reg.error();
  EXPECT_EQ(names((*reg)->at(Point::MLPolicy)), (std::vector<std::string>{"withargs", "throwing"}));
  EXPECT_EQ(names((*reg)->at(Point::Validation)), (std::vector<std::string>{"throwing"}));
  EXPECT_EQ(names((*reg)->at(Point::Status)), (std::vector<std::string>{"statusa"}));
}

TEST(Registry, SecondStatusPluginRefused) {
  auto reg = Registry::load(configFrom(R"({"plugins":[{"name":"statusa"},{"name":"statusb"}]})"));
  ASSERT_FALSE(reg);
  EXPECT_NE(reg.error().find("too many Status plugins are registered (statusa, statusb); at most one may "
                             "run at the status point"),
            std::string::npos)
      << reg.error();
}

TEST(Registry, DisablingOneStatusPluginResolvesTheConflict) {
  auto reg = Registry::load(configFrom(
      R"({"plugins":[{"name":"statusa"},{"name":"statusb"}],"extensionPoints":{"status":{"disabled":["statusa"]}}})"));
  ASSERT_TRUE(reg) << reg.error();
  EXPECT_EQ(names((*reg)->at(Point::Status)), (std::vector<std::string>{"statusb"}));
}

TEST(Registry, DisableStarThenEnableReorders) {
  auto reg = Registry::load(configFrom(
      R"({"plugins":[{"name":"withargs"},{"name":"throwing"}],
          "extensionPoints":{"mlPolicy":{"disabled":["*"],"enabled":["throwing","withargs"]},
                             "validation":{"disabled":["*"]}}})"));
  ASSERT_TRUE(reg) << reg.error();
  EXPECT_EQ(names((*reg)->at(Point::MLPolicy)), (std::vector<std::string>{"throwing", "withargs"}));
  EXPECT_TRUE((*reg)->at(Point::Validation).empty());
  EXPECT_EQ(names((*reg)->at(Point::JobHooks)), (std::vector<std::string>{"throwing"}));
}

TEST(Registry, EnablingAPluginAtAPointItDoesNotImplementIsAnError) {
  auto reg = Registry::load(configFrom(
      R"({"plugins":[{"name":"withargs"}],"extensionPoints":{"jobHooks":{"enabled":["withargs"]}}})"));
  ASSERT_FALSE(reg);
  EXPECT_NE(reg.error().find("extensionPoints.jobHooks.enabled names plugin \"withargs\", which does not "
                             "implement JobHooks; remove it from that list"),
            std::string::npos)
      << reg.error();
}

TEST(Registry, RequiredPluginFailureStopsTheHost) {
  auto reg = Registry::load(configFrom(R"({"plugins":[{"name":"withargs"},{"name":"abimajor"}]})"));
  ASSERT_FALSE(reg);
  EXPECT_NE(reg.error().find("libjobhost_abimajor.so: plugin \"abimajor\" was built for plugin ABI"),
            std::string::npos);
  EXPECT_NE(reg.error().find("(required plugin, configured at "), std::string::npos) << reg.error();
}

TEST(Registry, OptionalPluginFailureIsSkippedWithAWarning) {
  std::vector<std::string> warnings;
  auto reg = Registry::load(
      configFrom(R"({"plugins":[{"name":"createfails","required":false},{"name":"withargs"}]})"), &warnings);
  ASSERT_TRUE(reg) << reg.error();
  ASSERT_EQ((*reg)->plugins().size(), 1u);
  EXPECT_EQ((*reg)->plugins()[0].names[0], "withargs");
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("optional plugin skipped: "), std::string::npos);
  EXPECT_NE(warnings[0].find("failed to start (create): no GPU driver found"), std::string::npos);
}

TEST(Registry, SameFileTwiceIsRefused) {
  auto reg = Registry::load(configFrom(
      R"({"plugins":[{"name":"withargs"},{"name":"again","path":"libjobhost_withargs.so"}]})"));
  ASSERT_FALSE(reg);
  const std::string config = std::string(JOBHOST_FIXTURE_DIR) + "/test-config.json";
  EXPECT_NE(reg.error().find("plugin \"withargs\" is loaded twice (configured at " + config + ":1:13 and " + config +
                             ":1:33); remove the duplicate entry"),
            std::string::npos)
      << reg.error();
}

TEST(Registry, SameFileThroughASymlinkIsRefused) {
  const auto dir = std::filesystem::temp_directory_path() / ("jobhost-registry-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto link = dir / "libjobhost_wa_link.so";
  std::filesystem::remove(link);
  std::filesystem::create_symlink(std::string(JOBHOST_FIXTURE_DIR) + "/libjobhost_withargs.so", link);
  auto reg = Registry::load(configFrom(R"({"plugins":[{"name":"withargs"},{"name":"again","path":")" + link.string() +
                                       R"("}]})"));
  std::filesystem::remove_all(dir);
  ASSERT_FALSE(reg);
  EXPECT_EQ(reg.error(), link.string() + ": plugin \"withargs\" is loaded twice (also as " + JOBHOST_FIXTURE_DIR +
                             "/libjobhost_withargs.so) (configured at " + JOBHOST_FIXTURE_DIR + "/test-config.json:1:13 and " +
                             JOBHOST_FIXTURE_DIR + "/test-config.json:1:33); remove the duplicate entry from the config");
}

TEST(Registry, ActivationAliasesAndArgs) {
  auto reg = Registry::load(configFrom(
      R"({"plugins":[{"name":"withargs","aliases":["wa"],"args":["--level=2"]},
                     {"name":"throwing","activation":"always"}]})"));
  ASSERT_TRUE(reg) << reg.error();
  Job job;
  EXPECT_EQ((*reg)->activeAt(Point::MLPolicy, job).size(), 1u);  // only the always-on one
  job.spec.plugins["wa"] = {"--mode=fast"};
  auto active = (*reg)->activeAt(Point::MLPolicy, job);
  ASSERT_EQ(active.size(), 2u);
  EXPECT_EQ(active[0].plugin->names[0], "withargs");
  EXPECT_EQ(active[0].args, (std::vector<std::string>{"--level=2", "--mode=fast"}));
  EXPECT_EQ((*reg)->find("wa"), active[0].plugin);
  EXPECT_EQ((*reg)->find("nope"), nullptr);
}

}  // namespace
}  // namespace jobhost
