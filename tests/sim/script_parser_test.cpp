// The simulate script format: every field, defaults, incarnations and located errors.
#include <gtest/gtest.h>

#include "host/cluster/sim/simulation_script.h"

namespace jobhost {
namespace {

TEST(ScriptParser, ParsesTheDocumentedExample) {
  const char* text = R"(cluster: {nodes: 4, cpu: 8, memory: 32Gi, gpu: 0}
defaults: {startAfter: 1s, readyAfter: 0s, runFor: 10s, exitCode: 0}
pods:
  pt-mnist-worker-1:
    - {runFor: 5s, exitCode: 137}
    - {runFor: 10s, exitCode: 0}
  pt-mnist-worker-0:
    - {restarts: [{at: 3s}, {at: 6s}]}
events:
  - {at: 12s, evict: pt-mnist-worker-0}
  - {at: 30s, command: AbortJob}
  - {at: 31s, command: RestartTask, task: worker}
  - {at: 40s, loseNode: 1}
until: 1h
)";
  auto s = parseSimulationScript(text, "s.yaml");
  ASSERT_TRUE(s.ok()) << s.error();
  ASSERT_TRUE(s->cluster);
  EXPECT_EQ(s->cluster->nodes, 4);
  EXPECT_EQ(s->cluster->cpu.milliValue(), 8000);
  EXPECT_EQ(s->cluster->memory.milliValue(), int64_t{32} * 1024 * 1024 * 1024 * 1000);
  EXPECT_EQ(s->untilMs, 3'600'000);
  PodBehaviour first = s->behaviourFor("pt-mnist-worker-1", 1);
  EXPECT_EQ(first.runForMs, 5000);
  EXPECT_EQ(first.exitCode, 137);
  EXPECT_EQ(first.startAfterMs, 1000);
  EXPECT_EQ(s->behaviourFor("pt-mnist-worker-1", 2).exitCode, 0);
  EXPECT_EQ(s->behaviourFor("pt-mnist-worker-1", 3), s->defaults);  // past the list: defaults
  EXPECT_EQ(s->behaviourFor("pt-mnist-worker-0", 1).restartsAtMs, (std::vector<int64_t>{3000, 6000}));
  ASSERT_EQ(s->events.size(), 4u);
  EXPECT_EQ(s->events[0].kind, ScriptEvent::Kind::Evict);
  EXPECT_EQ(s->events[0].pod, "pt-mnist-worker-0");
  EXPECT_EQ(s->events[2].command, "RestartTask");
  EXPECT_EQ(s->events[2].task, "worker");
  EXPECT_EQ(s->events[3].kind, ScriptEvent::Kind::LoseNode);
  EXPECT_EQ(s->events[3].node, 1);
}

TEST(ScriptParser, EmptyScriptUsesDefaults) {
  auto s = parseSimulationScript("", "s.yaml");
  ASSERT_TRUE(s.ok());
  EXPECT_FALSE(s->cluster);
  EXPECT_FALSE(s->untilMs);
  EXPECT_EQ(s->defaults, PodBehaviour{});
}

TEST(ScriptParser, RunForForeverAndSingleMapping) {
  auto s = parseSimulationScript("pods:\n  a: {runFor: forever}\n", "s.yaml");
  ASSERT_TRUE(s.ok()) << s.error();
  EXPECT_FALSE(s->behaviourFor("a", 1).runForMs.has_value());
}

TEST(ScriptParser, EventsAreSortedByTime) {
  auto s = parseSimulationScript("events:\n  - {at: 5s, loseNode: 0}\n  - {at: 1s, command: ResumeJob}\n", "s.yaml");
  ASSERT_TRUE(s.ok()) << s.error();
  EXPECT_EQ(s->events[0].atMs, 1000);
}

void expectError(const std::string& text, const std::string& message) {
  auto s = parseSimulationScript(text, "s.yaml");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error(), message);
}

TEST(ScriptParser, ErrorsNameFileLineColumnAndField) {
  expectError("defaults: {startAfter: soon}\n",
              "s.yaml:1:24: defaults.startAfter: expected a duration such as 1s, 500ms, 2m or 1h30m, got \"soon\"");
  expectError("cluster: {nodes: 0}\n", "s.yaml:1:18: cluster.nodes: expected an integer between 1 and 100000, got \"0\"");
  expectError("bogus: 1\n", "s.yaml:1:1: bogus: unknown key (allowed: cluster, defaults, pods, missingPvcs, events, until)");
  expectError("events:\n  - {at: 1s, command: Explode}\n",
              "s.yaml:2:23: events[0].command: unknown command \"Explode\" (AbortJob ResumeJob RestartJob TerminateJob "
              "CompleteJob RestartTask RestartPod RestartPartition)");
  expectError("events:\n  - {at: 1s, command: RestartTask}\n", "s.yaml:2:5: events[0].task: RestartTask needs task:");
  expectError("events:\n  - {evict: a}\n", "s.yaml:2:5: events[0].at: required (virtual time from submit, e.g. 12s)");
  expectError("pods:\n  a: 3\n", "s.yaml:2:6: pods.a: expected a mapping or a list of mappings (one per incarnation)");
  expectError("cluster: {memory: lots}\n",
              "s.yaml:1:19: cluster.memory: expected a resource quantity such as 8, 500m or 32Gi: " +
                  [] {
                    std::string why;
                    (void)Quantity::parse("lots", &why);
                    return why;
                  }());
  expectError("cluster: {cpu: -1}\n", "s.yaml:1:16: cluster.cpu: must not be negative, got \"-1\"");
}

TEST(ScriptParser, YamlSyntaxErrorsAreLocated) {
  expectError("pods: [a, }\n", "s.yaml:1:11: invalid YAML: illegal flow end");
  expectError("until: " + std::string(600, '[') + std::string(600, ']') + "\n",
              "s.yaml:1:1208: invalid YAML: nesting deeper than 500 levels, the YAML parser's limit; flatten the document");
}

TEST(ScriptParser, AScriptIsOneDocument) {
  expectError("until: 1m\n---\nfoo: bar\n",
              "s.yaml:3:1: a script is one YAML document, and this is a second one; merge them or remove the extra \"---\"");
  auto s = parseSimulationScript("---\n---\nuntil: 3m\n", "s.yaml");
  ASSERT_TRUE(s.ok()) << s.error();
  EXPECT_EQ(s->untilMs, 180'000);
}

}  // namespace
}  // namespace jobhost
