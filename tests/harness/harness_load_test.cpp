// Harness loading: shipped .so files through the production loader, the in-process path with the
// same descriptor checks, broken fixtures refused with the loader's message, config snippets and args.
#include <gtest/gtest.h>
#include <jobhost/testing/harness.h>
#include <jobhost/version.h>

#include <filesystem>

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

TEST(HarnessLoad, MissingFileIsALoadErrorNamingTheSharedObjectPath) {
  Harness h({sharedObject("/nonexistent/libjobhost_x.so")});
  ASSERT_FALSE(h.ok());
  EXPECT_EQ(h.loadError(),
            "/nonexistent/libjobhost_x.so: plugin file does not exist; fix the path passed to sharedObject()");
}

TEST(HarnessLoad, ARelativeSharedObjectPathIsTakenFromTheWorkingDirectory) {
  Harness h({sharedObject("plugins/libjobhost_x.so")});
  ASSERT_FALSE(h.ok());
  EXPECT_EQ(h.loadError(), "plugins/libjobhost_x.so: plugin file does not exist; fix the path passed to sharedObject() "
                           "(a relative path is taken from the working directory, " +
                               std::filesystem::current_path().string() + ")");
}

TEST(HarnessLoad, AConfigSnippetsPathKeepsTheConfigAdvice) {
  Harness h({}, R"({"plugins": [{"name": "x", "path": "/nonexistent/libjobhost_x.so"}]})");
  ASSERT_FALSE(h.ok());
  EXPECT_EQ(h.loadError(),
            "/nonexistent/libjobhost_x.so: plugin file does not exist; fix the plugin's \"path\" in the config");
}

TEST(HarnessLoad, ShippedPluginDirIsBesideTheTestingLibrary) {
  EXPECT_EQ(shippedPluginDir(), JOBHOST_BUILD_PLUGIN_DIR);
  Harness h({shipped("env")});
  ASSERT_TRUE(h.ok()) << h.loadError();
  EXPECT_EQ(h.pluginInfo("env").file, JOBHOST_BUILD_PLUGIN_DIR "/libjobhost_env.so");
}

// The refusals of mismatched builds name both sides: the plugin's ABI (or build key) and the host's.
std::string abi(int major, int minor) { return std::to_string(major) + "." + std::to_string(minor); }

TEST(HarnessLoad, AbiMajorMismatchIsRefusedNamingBothVersions) {
  Harness h({sharedObject(JOBHOST_FIXTURE_DIR "/libjobhost_abimajor.so")});
  ASSERT_FALSE(h.ok());
  EXPECT_EQ(h.loadError(), JOBHOST_FIXTURE_DIR "/libjobhost_abimajor.so: plugin \"abimajor\" was built for plugin ABI " +
                               abi(JOBHOST_ABI_MAJOR + 1, JOBHOST_ABI_MINOR) + " but this host speaks ABI " +
                               abi(JOBHOST_ABI_MAJOR, JOBHOST_ABI_MINOR) +
                               "; rebuild the plugin against jobhost SDK " JOBHOST_SDK_VERSION_STRING);
}

TEST(HarnessLoad, NewerAbiMinorIsRefusedNamingBothVersions) {
  Harness h({sharedObject(JOBHOST_FIXTURE_DIR "/libjobhost_abiminor.so")});
  ASSERT_FALSE(h.ok());
  EXPECT_EQ(h.loadError(), JOBHOST_FIXTURE_DIR "/libjobhost_abiminor.so: plugin \"abiminor\" needs plugin ABI " +
                               abi(JOBHOST_ABI_MAJOR, JOBHOST_ABI_MINOR + 1) + " but this host provides only " +
                               abi(JOBHOST_ABI_MAJOR, JOBHOST_ABI_MINOR) +
                               "; upgrade jobhost or rebuild the plugin against SDK " JOBHOST_SDK_VERSION_STRING);
}

TEST(HarnessLoad, BuildKeyMismatchIsRefusedNamingBothKeys) {
  Harness h({sharedObject(JOBHOST_FIXTURE_DIR "/libjobhost_buildkey.so")});
  ASSERT_FALSE(h.ok());
  EXPECT_EQ(h.loadError(), JOBHOST_FIXTURE_DIR
            "/libjobhost_buildkey.so: plugin \"buildkey\" build key \"itanium/libc++/sdk-0\" does not match the "
            "host's \"" JOBHOST_BUILD_KEY "\"; rebuild the plugin with the same compiler family and C++ library");
}

TEST(HarnessLoad, DefaultArgsReachTheSharedObject) {
  Harness h({shipped("env"), shipped("svc", {"--disable-network-policy=true"})});
  ASSERT_TRUE(h.ok()) << h.loadError();
  ASSERT_TRUE(h.submit(R"(
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: demo, namespace: team-a}
spec:
  plugins: {svc: []}
  tasks: [{name: a, replicas: 2, template: {spec: {containers: [{name: c, image: busybox}]}}}]
)"));
  EXPECT_TRUE(h.resources().networkPolicies.empty());
  EXPECT_EQ(h.resources().services.size(), 1u);
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
