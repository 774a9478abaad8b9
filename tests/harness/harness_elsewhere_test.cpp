// A harness test built outside the SDK's tree (its binary has no ../lib/jobhost/plugins, like a
// third party's test against the installed SDK): shipped() falls back to the SDK's plugin directory.
#include <gtest/gtest.h>
#include <jobhost/testing/harness.h>

namespace jobhost::testing {
namespace {

TEST(HarnessElsewhere, ShippedFindsTheSdksPluginsBesideTheTestingLibrary) {
  Harness h({shipped("env"), shipped("svc")});
  ASSERT_TRUE(h.ok()) << h.loadError();
  EXPECT_EQ(h.pluginInfo("env").file, JOBHOST_SDK_PLUGIN_DIR "/libjobhost_env.so");
  EXPECT_EQ(h.pluginInfo("svc").file, JOBHOST_SDK_PLUGIN_DIR "/libjobhost_svc.so");
}

TEST(HarnessElsewhere, APluginFoundNowhereListsEveryDirectoryLookedIn) {
  Harness h({shipped("nope")});
  ASSERT_FALSE(h.ok());
  EXPECT_EQ(h.loadError(), "libjobhost_nope.so: plugin \"nope\" not found (looked in: " JOBHOST_BINARY_PLUGIN_DIR
                           "/libjobhost_nope.so, " JOBHOST_SDK_PLUGIN_DIR
                           "/libjobhost_nope.so); build it, set \"pluginPath\" in the config or "
                           "JOBHOST_PLUGIN_PATH, or give its \"path\"");
}

}  // namespace
}  // namespace jobhost::testing
