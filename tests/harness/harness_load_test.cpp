// Harness loading: shipped .so files through the production loader, the in-process path with the
// same descriptor checks, broken fixtures refused with the loader's message, config snippets and args.
#include <gtest/gtest.h>
#include <jobhost/testing/harness.h>

JOBHOST_DECLARE_STATIC_PLUGIN(env);
JOBHOST_DECLARE_STATIC_PLUGIN(svc);

namespace jobhost::testing {
namespace {

using Strings = std::vector<std::string>;

TEST(HarnessLoad, ShippedSharedObjectThroughTheProductionLoader) {
  Harness h({shipped("env"), shipped("svc")});
  ASSERT_TRUE(h.ok()) << h.loadError();
  EXPECT_EQ(h.pluginNames(), (Strings{"env", "svc"}));
  EXPECT_EQ(h.capabilities("env"), kValidation | kJobHooks);
  EXPECT_EQ(h.capabilities("nope"), 0u);
}

TEST(HarnessLoad, InProcessEntryTakesTheSameChecks) {
  Harness h({inProcess(&jobhost_plugin_entry_env), inProcess(&jobhost_plugin_entry_svc)});
  ASSERT_TRUE(h.ok()) << h.loadError();
  EXPECT_EQ(h.pluginNames(), (Strings{"env", "svc"}));
  EXPECT_EQ(h.capabilities("env"), kValidation | kJobHooks);
}

TEST(HarnessLoad, InProcessDefaultArgsAreCheckedByTheLoader) {
  Harness h({inProcess(&jobhost_plugin_entry_env, {"-x"})});
  ASSERT_FALSE(h.ok());
  EXPECT_EQ(h.loadError(),
            "<in-process env>: plugin \"env\" rejected its config args: plugin env: flag provided but not "
            "defined: -x; fix its \"args\" in the config");
}

TEST(HarnessLoad, MissingFileIsALoadError) {
  Harness h({sharedObject("/nonexistent/libjobhost_x.so")});
  ASSERT_FALSE(h.ok());
  EXPECT_EQ(h.loadError(),
            "/nonexistent/libjobhost_x.so: plugin file does not exist; fix the plugin's \"path\" in the config");
}

TEST(HarnessLoad, AbiMismatchIsRefusedBeforeAnyObjectCrosses) {
  Harness h({sharedObject(JOBHOST_FIXTURE_DIR "/libjobhost_abimajor.so")});
  ASSERT_FALSE(h.ok());
  EXPECT_NE(h.loadError().find("plugin \"abimajor\" was built for plugin ABI 2.0 but this host speaks ABI 1.0"),
            std::string::npos)
      << h.loadError();
}

TEST(HarnessLoad, BadConfigSnippetIsALoadError) {
  Harness h({shipped("env")}, R"({"controller": {"workers": "many"}})");
  ASSERT_FALSE(h.ok());
  EXPECT_EQ(h.loadError().rfind("<harness config>:", 0), 0u) << h.loadError();
}

TEST(HarnessLoad, ConfigSnippetPluginsLoadBeforeTheSources) {
  Harness h({shipped("svc")}, R"({"plugins": [{"name": "env"}]})");
  ASSERT_TRUE(h.ok()) << h.loadError();
  EXPECT_EQ(h.pluginNames(), (Strings{"env", "svc"}));
}

TEST(HarnessLoad, SubmitBeforeALoadReportsTheLoadError) {
  Harness h({sharedObject("/nonexistent/libjobhost_x.so")});
  Submission s = h.submit("kind: Job");
  EXPECT_FALSE(s);
  EXPECT_EQ(s.error.rfind("jobhost::testing: the harness did not load: ", 0), 0u) << s.error;
}

}  // namespace
}  // namespace jobhost::testing
