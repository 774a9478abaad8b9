// Audit of the jobhost::testing harness against the host's plugin policy: a config snippet's
// optional plugin that fails to load is skipped as `jobhost --config` skips it; a required one fails.
#include <gtest/gtest.h>
#include <jobhost/testing/harness.h>

namespace jobhost::testing {
namespace {

using Strings = std::vector<std::string>;

const std::string kCreateFails = JOBHOST_FIXTURE_DIR "/libjobhost_createfails.so";

TEST(AuditHarness, OptionalSnippetPluginThatFailsToLoadIsSkipped) {
  Harness h({shipped("svc")}, R"({"plugins": [{"path": ")" + kCreateFails + R"(", "required": false},
                                             {"name": "env"}]})");
  ASSERT_TRUE(h.ok()) << h.loadError();
  EXPECT_EQ(h.pluginNames(), (Strings{"env", "svc"}));
}

TEST(AuditHarness, RequiredSnippetPluginThatFailsToLoadIsALoadError) {
  Harness h({shipped("svc")}, R"({"plugins": [{"path": ")" + kCreateFails + R"("}, {"name": "env"}]})");
  ASSERT_FALSE(h.ok());
  EXPECT_EQ(h.loadError(), kCreateFails + ": plugin \"createfails\" failed to start (create): no GPU driver found");
}

}  // namespace
}  // namespace jobhost::testing
