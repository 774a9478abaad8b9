// Audit of the plugin framework against the Trainer framework and plugin-host notes: per-point
// enabled/disabled lists by any configured name, unique plugin names, loader search, aggregated Validation.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "host/plugin/loader.h"
#include "host/plugin/plugin_validation.h"
#include "host/plugin/registry.h"

namespace jobhost {
namespace {

namespace fs = std::filesystem;
using Strings = std::vector<std::string>;

HostConfig configFrom(const std::string& json) {
  auto c = parseHostConfig(json, std::string(JOBHOST_FIXTURE_DIR) + "/audit-config.json");
  EXPECT_TRUE(c) << c.error();
  c->pluginPath = {JOBHOST_FIXTURE_DIR};
  return *c;
}

Strings names(const std::vector<const RegisteredPlugin*>& list) {
  Strings out;
  for (const auto* p : list) out.push_back(p->names[0]);
  return out;
}

// A fresh directory of its own under the test's temporary directory.
fs::path scratchDir(const std::string& name) {
  fs::path dir = fs::path(::testing::TempDir()) / ("jobhost-audit-" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// kube-scheduler PluginSet: `disabled` removes a default plugin; jobhost accepts any name the
// config gives a plugin (its name or an alias) in these lists, as `enabled` does.
TEST(AuditRegistry, DisabledByAliasRemovesThePlugin) {
  auto reg = Registry::load(configFrom(R"({"plugins":[{"name":"withargs","aliases":["wa"]},{"name":"throwing"}],
                                           "extensionPoints":{"mlPolicy":{"disabled":["wa"]}}})"));
  ASSERT_TRUE(reg) << reg.error();
  EXPECT_EQ(names((*reg)->at(Point::MLPolicy)), (Strings{"throwing"}));
}

TEST(AuditRegistry, DisablingAStatusPluginByAliasResolvesTheConflict) {
  auto reg = Registry::load(configFrom(R"({"plugins":[{"name":"statusa","aliases":["sa"]},{"name":"statusb"}],
                                           "extensionPoints":{"status":{"disabled":["sa"]}}})"));
  ASSERT_TRUE(reg) << reg.error();
  EXPECT_EQ(names((*reg)->at(Point::Status)), (Strings{"statusb"}));
}

// `enabled` plugins run after the defaults in the listed order; one that is disabled and enabled
// again moves behind the defaults; an enabled plugin that is already a default keeps its place.
TEST(AuditRegistry, EnabledAddsAfterTheDefaultsAndDefaultsKeepTheirPlace) {
  auto moved = Registry::load(configFrom(
      R"({"plugins":[{"name":"withargs"},{"name":"throwing"},{"name":"probea"}],
          "extensionPoints":{"mlPolicy":{"disabled":["withargs"],"enabled":["withargs"]}}})"));
  ASSERT_TRUE(moved) << moved.error();
  EXPECT_EQ(names((*moved)->at(Point::MLPolicy)), (Strings{"throwing", "probea", "withargs"}));
  auto kept = Registry::load(configFrom(
      R"({"plugins":[{"name":"withargs"},{"name":"throwing"},{"name":"probea"}],
          "extensionPoints":{"mlPolicy":{"enabled":["probea","withargs"]}}})"));
  ASSERT_TRUE(kept) << kept.error();
  EXPECT_EQ(names((*kept)->at(Point::MLPolicy)), (Strings{"withargs", "throwing", "probea"}));
}

TEST(AuditRegistry, EnabledOptionalPluginThatDidNotLoadIsLeftOut) {
  auto reg = Registry::load(configFrom(R"({"plugins":[{"name":"createfails","required":false},{"name":"withargs"}],
                                           "extensionPoints":{"mlPolicy":{"enabled":["createfails"]}}})"));
  ASSERT_TRUE(reg) << reg.error();
  EXPECT_EQ(names((*reg)->at(Point::MLPolicy)), (Strings{"withargs"}));
}

// Registration by name refuses duplicates: a second plugin that ends up with a name already taken
// (here a path-loaded copy whose descriptor says "withargs") is refused, naming both files.
TEST(AuditRegistry, TwoPluginsWithOneNameAreRefused) {
  const fs::path dir = scratchDir("dupname");
  const fs::path copy = dir / "libjobhost_withargs.so";
  fs::copy_file(fs::path(JOBHOST_FIXTURE_DIR) / "libjobhost_withargs.so", copy);
  auto reg = Registry::load(configFrom(R"({"plugins":[{"name":"withargs"},{"path":")" + copy.string() + R"("}]})"));
  ASSERT_FALSE(reg);
  EXPECT_EQ(reg.error(), copy.string() + ": plugin name \"withargs\" is already used by the plugin loaded from " +
                             JOBHOST_FIXTURE_DIR + "/libjobhost_withargs.so; give one of them another \"name\" "
                             "in the config");
  // Given its own name, the copy loads beside the original.
  auto renamed = Registry::load(configFrom(R"({"plugins":[{"name":"withargs"},{"name":"wa2","path":")" +
                                           copy.string() + R"("}]})"));
  ASSERT_TRUE(renamed) << renamed.error();
  EXPECT_EQ(names((*renamed)->at(Point::MLPolicy)), (Strings{"withargs", "wa2"}));
}

// Search by name: a file that exists but fails to load reports its own error and ends the search,
// even when a later directory holds a good copy.
TEST(AuditLoader, AnExistingFileThatFailsToLoadEndsTheSearch) {
  const fs::path dir = scratchDir("search");
  const fs::path broken = dir / "libjobhost_env.so";
  std::ofstream(broken) << "not a shared object\n";
  auto p = loadPlugin(LoadRequest{"env", "", "", {dir.string(), JOBHOST_PLUGIN_DIR}, {}});
  ASSERT_FALSE(p);
  EXPECT_EQ(p.error().rfind(broken.string() + ": not a loadable shared object (", 0), 0u) << p.error();
  auto good = loadPlugin(LoadRequest{"env", "", "", {(dir / "empty").string(), JOBHOST_PLUGIN_DIR}, {}});
  ASSERT_TRUE(good) << good.error();
  EXPECT_EQ(good->file, std::string(JOBHOST_PLUGIN_DIR) + "/libjobhost_env.so");
}

// CustomValidation aggregates: every active plugin runs, in config order, even after one fails or
// throws; each failure is an error at spec.plugins.<name> naming the plugin and the point.
TEST(AuditValidation, EveryPluginRunsAndFindingsFollowConfigOrder) {
  const std::string env = std::string(JOBHOST_PLUGIN_DIR) + "/libjobhost_env.so";
  auto reg = Registry::load(configFrom(R"({"plugins":[{"name":"faulty"},{"name":"throwing"},{"name":"env","path":")" +
                                       env + R"("}],"extensionPoints":{"status":{"disabled":["*"]}}})"));
  ASSERT_TRUE(reg) << reg.error();
  Job job;
  job.spec.plugins["faulty"] = {"--validate=error"};
  job.spec.plugins["throwing"] = {};
  job.spec.plugins["env"] = {"--nope"};
  ValidationResult out;
  validationPlugins(**reg)(job, nullptr, out);
  ASSERT_EQ(out.errors.size(), 2u);
  EXPECT_EQ(out.errors[0].field, "spec.plugins.faulty");
  EXPECT_EQ(out.errors[0].message, "plugin \"faulty\" failed in Validation: faulty failed in validate");
  EXPECT_EQ(out.errors[1].field, "spec.plugins.throwing");
  EXPECT_EQ(out.errors[1].message,
            "plugin \"throwing\" failed in Validation: Validate threw an exception: fixture failure in validate");
  EXPECT_EQ(out.warnings,
            (Strings{"spec.plugins.env: plugin env: flag provided but not defined: -nope (ignored as on Volcano: flags before it apply, flags after it keep "
                     "their defaults, and a value that does not parse is set as Go sets it: "
                     "0, false or the bound it passed)"}));

  auto reversed = Registry::load(configFrom(R"({"plugins":[{"name":"throwing"},{"name":"faulty"}],
                                                "extensionPoints":{"status":{"disabled":["*"]}}})"));
  ASSERT_TRUE(reversed) << reversed.error();
  ValidationResult again;
  validationPlugins(**reversed)(job, nullptr, again);
  ASSERT_EQ(again.errors.size(), 2u);
  EXPECT_EQ(again.errors[0].field, "spec.plugins.throwing");
  EXPECT_EQ(again.errors[1].field, "spec.plugins.faulty");
}

}  // namespace
}  // namespace jobhost
