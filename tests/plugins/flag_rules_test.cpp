// Go `flag` rules (spec/volcano-job-controller.md §7.1) for every shipped plugin, end to end through
// the production loader, admission and the sim cluster: `--x=v`, `-x=v` and `--x v` set the same
// value, a bool is on when given bare and off only with `=false`, and an unknown flag or a bad value
// is, as on Volcano, ignored with the flags after it: the job is admitted with a warning on
// `spec.plugins.<name>` that names the plugin and the flag.
#include <gtest/gtest.h>

#include <jobhost/testing/testing.h>

namespace jobhost::testing {
namespace {

using Strings = std::vector<std::string>;

// A master (1) and worker (2) job in team-a whose spec.plugins is `plugins` (YAML flow mapping).
std::string jobWith(const std::string& plugins) {
  return R"(
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: flags, namespace: team-a}
spec:
  plugins: )" + plugins + R"(
  tasks:
    - name: master
      replicas: 1
      template: {spec: {restartPolicy: Never, containers: [{name: main, image: busybox}]}}
    - name: worker
      replicas: 2
      template: {spec: {restartPolicy: Never, containers: [{name: main, image: busybox}]}}
)";
}

std::vector<PluginSource> allSix() {
  PluginSource torch = shipped("torch");
  torch.aliases = {"pytorch"};
  return {shipped("env"), shipped("svc"), shipped("ssh"), torch, shipped("mpi"), shipped("coscheduling")};
}

// The three value spellings of Go's flag package.
const std::vector<std::function<Strings(const std::string&, const std::string&)>> kForms = {
    [](const std::string& f, const std::string& v) { return Strings{"--" + f + "=" + v}; },
    [](const std::string& f, const std::string& v) { return Strings{"-" + f + "=" + v}; },
    [](const std::string& f, const std::string& v) { return Strings{"--" + f, v}; },
};

std::string flow(const Strings& args) {
  std::string out = "[";
  for (size_t i = 0; i < args.size(); ++i) out += (i ? ", \"" : "\"") + args[i] + "\"";
  return out + "]";
}

TEST(PluginFlagRules, EveryValueFormSetsTheSameValueInEveryPlugin) {
  for (size_t form = 0; form < kForms.size(); ++form) {
    SCOPED_TRACE("form " + std::to_string(form));
    const auto args = [&](const std::string& f, const std::string& v) { return flow(kForms[form](f, v)); };
    Harness h(allSix());
    ASSERT_TRUE(h.ok()) << h.loadError();
    ASSERT_TRUE(h.submit(jobWith("{env: [], svc: [], ssh: " + args("ssh-port", "2022") + ", pytorch: " +
                                 args("port", "1234") + ", mpi: " + args("port", "2222") +
                                 ", coscheduling: " + args("scheduleTimeoutSeconds", "90") + "}")));
    EXPECT_NE(h.secret("flags-ssh").data.at("config").find("  Port 2022\n"), std::string::npos);
    const PodView master = h.pod("flags-master-0");
    EXPECT_EQ(master.env("MASTER_PORT"), "1234");
    ASSERT_NE(master.port("pytorchjob-port"), nullptr);
    EXPECT_EQ(master.port("pytorchjob-port")->containerPort, 1234);
    ASSERT_NE(master.port("mpijob-port"), nullptr);
    EXPECT_EQ(master.port("mpijob-port")->containerPort, 2222);
    ASSERT_TRUE(h.podGroup());
    EXPECT_EQ(h.podGroup()->spec.scheduleTimeoutSeconds, std::optional<int32_t>(90));
  }
}

TEST(PluginFlagRules, ABoolIsOnWhenBareAndOffOnlyWithEqualsFalse) {
  struct Case {
    Strings svcArgs;
    bool publishNotReady;
    bool networkPolicy;
  };
  const std::vector<Case> cases = {
      {{}, false, true},
      {{"--publish-not-ready-addresses", "-disable-network-policy"}, true, false},
      {{"--publish-not-ready-addresses=true", "--disable-network-policy=false"}, true, true},
      {{"-publish-not-ready-addresses=false", "--disable-network-policy=1"}, false, false},
      // "false" is the first non-flag argument: the bool stays on and the flags after it are not read.
      {{"--publish-not-ready-addresses", "false", "--disable-network-policy"}, true, true},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(flow(c.svcArgs));
    Harness h(allSix());
    ASSERT_TRUE(h.ok()) << h.loadError();
    ASSERT_TRUE(h.submit(jobWith("{svc: " + flow(c.svcArgs) + "}")));
    EXPECT_EQ(h.service("flags").spec.publishNotReadyAddresses, c.publishNotReady);
    EXPECT_EQ(h.resources().networkPolicies.size(), c.networkPolicy ? 1u : 0u);
  }
  Harness h(allSix());
  ASSERT_TRUE(h.ok()) << h.loadError();
  ASSERT_TRUE(h.submit(jobWith("{pytorch: [\"--wait-master-enabled\"]}")));
  EXPECT_EQ(h.pod("flags-worker-1").initContainer("wait-for-master").image, "busybox:1.36.1");
  Harness off(allSix());
  ASSERT_TRUE(off.ok()) << off.loadError();
  ASSERT_TRUE(off.submit(jobWith("{pytorch: [\"--wait-master-enabled=false\"]}")));
  EXPECT_TRUE(off.pod("flags-worker-1").pod().spec.initContainers.empty());
}

TEST(PluginFlagRules, UnknownFlagsAndBadValuesAreAdmissionWarningsNamingPluginAndFlag) {
  struct Case {
    std::string plugins;
    std::string field;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"{env: [\"-x=1\"]}", "spec.plugins.env", "plugin env: flag provided but not defined: -x"},
      {"{svc: [\"--inject-hosts-env=maybe\"]}", "spec.plugins.svc",
       "plugin svc: invalid boolean value \"maybe\" for -inject-hosts-env: parse error"},
      {"{svc: [\"--no-such-flag\"]}", "spec.plugins.svc", "plugin svc: flag provided but not defined: -no-such-flag"},
      {"{ssh: [\"--ssh-port\", \"x\"]}", "spec.plugins.ssh", "plugin ssh: invalid value \"x\" for flag -ssh-port: parse error"},
      {"{ssh: [\"--ssh-private-key\"]}", "spec.plugins.ssh", "plugin ssh: flag needs an argument: -ssh-private-key"},
      {"{pytorch: [\"-port=abc\"]}", "spec.plugins.pytorch",
       "plugin pytorch: invalid value \"abc\" for flag -port: parse error"},
      {"{pytorch: [\"--wait-master-enabled=nope\"]}", "spec.plugins.pytorch",
       "plugin pytorch: invalid boolean value \"nope\" for -wait-master-enabled: parse error"},
      {"{pytorch: [\"--wait-master-timeout=99999999999999999999\"]}", "spec.plugins.pytorch",
       "plugin pytorch: invalid value \"99999999999999999999\" for flag -wait-master-timeout: value out of range"},
      {"{mpi: [\"--bogus\"]}", "spec.plugins.mpi", "plugin mpi: flag provided but not defined: -bogus"},
      {"{mpi: [\"--port\", \"ssh\"]}", "spec.plugins.mpi", "plugin mpi: invalid value \"ssh\" for flag -port: parse error"},
      {"{coscheduling: [\"--scheduleTimeoutSeconds\"]}", "spec.plugins.coscheduling",
       "plugin coscheduling: flag needs an argument: -scheduleTimeoutSeconds"},
      {"{coscheduling: [\"--timeout=5\"]}", "spec.plugins.coscheduling",
       "plugin coscheduling: flag provided but not defined: -timeout"},
  };
  Harness h(allSix());
  ASSERT_TRUE(h.ok()) << h.loadError();
  for (const auto& c : cases) {
    SCOPED_TRACE(c.plugins);
    const Submission s = h.admit(jobWith(c.plugins));
    EXPECT_TRUE(s.admitted);
    EXPECT_TRUE(s.errors.empty());
    EXPECT_EQ(s.warnings, Strings{c.field + ": " + c.message +
                                  " (ignored as on Volcano: flags before it apply, flags after it keep "
                                  "their defaults, and a value that does not parse is set as Go sets it: "
                                  "0, false or the bound it passed)"});
  }
  // The flags after `--`, or after the first non-flag argument, are not parsed, as in Go.
  const Submission afterNonFlag = h.admit(jobWith("{env: [\"--\", \"--x\"], svc: [\"later\", \"--bogus\"]}"));
  EXPECT_TRUE(afterNonFlag.admitted);
  EXPECT_TRUE(afterNonFlag.warnings.empty());
}

// Go's flag.Parse stops at the bad flag: the ones before it are set, the ones after keep their
// defaults, and the plugin runs with that (Volcano only logs the error).
TEST(PluginFlagRules, AJobWithAnUnknownFlagRunsWithTheFlagsBeforeIt) {
  Harness h(allSix());
  ASSERT_TRUE(h.ok()) << h.loadError();
  const Submission s =
      h.submit(jobWith("{svc: [\"--publish-not-ready-addresses\", \"--bogus\", \"--disable-network-policy\"]}"));
  ASSERT_TRUE(s) << s.error;
  EXPECT_EQ(s.warnings, Strings{"spec.plugins.svc: plugin svc: flag provided but not defined: -bogus (ignored as on "
                                "Volcano: flags before it apply, flags after it keep their defaults, and a value that does "
                                "not parse is set as Go sets it: 0, false or the bound it passed)"});
  EXPECT_TRUE(h.service("flags").spec.publishNotReadyAddresses);
  EXPECT_EQ(h.resources().networkPolicies.size(), 1u);  // --disable-network-policy came after -bogus
}

}  // namespace
}  // namespace jobhost::testing
