// Job decoding errors: each names file:line:column, the field path and what was expected; under
// spec, wrong types and undeclared keys are schema findings worded as the API server words them.
#include <gtest/gtest.h>

#include "host/spec/job_decode.h"
#include "host/spec/job_loader.h"

namespace jobhost {
namespace {

constexpr const char* kHeader = "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata:\n  name: j\n";

std::string errorOf(const std::string& text, const std::string& file = "job.yaml") {
  auto result = parseJobs(text, file);
  EXPECT_FALSE(result.ok());
  return result.ok() ? "" : result.error();
}

// Every job's schema findings as "<file:line:column>: [undeclared ]<field>: <message>" lines
// (admission words an undeclared key).
std::vector<std::string> findingsOf(const std::string& text, const std::string& file = "job.yaml") {
  auto result = parseJobs(text, file);
  EXPECT_TRUE(result.ok()) << (result.ok() ? "" : result.error());
  std::vector<std::string> out;
  if (!result.ok()) return out;
  for (const auto& doc : *result)
    for (const auto& f : doc.schemaFindings)
      out.push_back(doc.source.where(f.field) + ": " + (f.undeclared ? "undeclared " : "") + f.field + ": " + f.message);
  return out;
}

// "<field>: Invalid value: "<got>": <field> in body must be of type <want>: "<got>"".
std::string typeError(const std::string& field, const std::string& want, const std::string& got) {
  return field + ": Invalid value: \"" + got + "\": " + field + " in body must be of type " + want + ": \"" + got + "\"";
}

using Lines = std::vector<std::string>;

TEST(JobErrors, WrongTypesUnderSpecAreTheApiServersTypeErrorsAtTheirPosition) {
  struct Case {
    const char* spec;  // what follows "spec:"
    const char* at;
    const char* field;
    const char* want;
    const char* got;
  };
  const Case cases[] = {
      {"\n  tasks:\n    - replicas: two\n", "7:17", "spec.tasks[0].replicas", "integer", "string"},
      {"\n  tasks:\n    - replicas: 1.5\n", "7:17", "spec.tasks[0].replicas", "integer", "number"},
      {"\n  queue: 2.0\n", "6:10", "spec.queue", "string", "integer"},  // kubectl sends 2
      {"\n  queue: 1e30\n", "6:10", "spec.queue", "string", "number"},
      {"\n  queue: [a]\n", "6:10", "spec.queue", "string", "array"},
      {"\n  tasks: {}\n", "6:10", "spec.tasks", "array", "object"},
      {" 3\n", "5:7", "spec", "object", "integer"},
      {"\n  plugins:\n    ringsconfigmap: {}\n", "7:21", "spec.plugins.ringsconfigmap", "array", "object"},
      {"\n  policies:\n    - {event: PodFailed, timeout: 5}\n", "7:35", "spec.policies[0].timeout", "string",
       "integer"},
      {"\n  volumes:\n    - {mountPath: /d, volumeClaim: 1}\n", "7:36", "spec.volumes[0].volumeClaim", "object",
       "integer"},
  };
  for (const auto& c : cases)
    EXPECT_EQ(findingsOf(std::string(kHeader) + "spec:" + c.spec),
              Lines{"job.yaml:" + std::string(c.at) + ": " + typeError(c.field, c.want, c.got)})
        << c.spec;
}

// The API server lists every type error at once; the fields are left unset and decoding goes on.
TEST(JobErrors, EveryWrongTypeIsFoundAndTheRestOfTheSpecIsDecoded) {
  auto jobs = parseJobs(std::string(kHeader) + "spec:\n  queue: [a]\n  maxRetry: x\n  minAvailable: 2\n", "job.yaml");
  ASSERT_TRUE(jobs.ok()) << jobs.error();
  const JobDocument& doc = jobs->front();
  ASSERT_EQ(doc.schemaFindings.size(), 2u);
  EXPECT_EQ(doc.schemaFindings[0].field, "spec.queue");
  EXPECT_EQ(doc.schemaFindings[1].field + ": " + doc.schemaFindings[1].message,
            typeError("spec.maxRetry", "integer", "string"));
  EXPECT_EQ(doc.job.spec.queue, "");
  EXPECT_EQ(doc.job.spec.maxRetry, JobSpec{}.maxRetry);
  EXPECT_EQ(doc.job.spec.minAvailable, 2);
}

// Scalars are typed as kubectl types them (YAML 1.1): `no` is false, `yes` is true.
TEST(JobErrors, YamlOneOneBooleansAreBooleansAsUnderKubectl) {
  EXPECT_EQ(findingsOf(std::string(kHeader) + "spec:\n  queue: no\n"),
            Lines{"job.yaml:6:10: " + typeError("spec.queue", "string", "boolean")});
  auto jobs = parseJobs(std::string(kHeader) + "spec:\n  tasks:\n    - template: {spec: {hostNetwork: yes}}\n", "job.yaml");
  ASSERT_TRUE(jobs.ok()) << jobs.error();
  EXPECT_TRUE(jobs->front().schemaFindings.empty());
  EXPECT_TRUE(jobs->front().job.spec.tasks[0].template_.spec.hostNetwork);
}

// Outside spec and status, and for values of the right type that do not parse, decoding stops at the error.
TEST(JobErrors, OtherProblemsStopDecoding) {
  EXPECT_EQ(errorOf(std::string(kHeader) + "spec:\n  minAvailable: 3000000000\n"),
            "job.yaml:6:17: spec.minAvailable: 3000000000 is out of range: must be an integer between "
            "-2147483648 and 2147483647");
  EXPECT_EQ(errorOf(std::string(kHeader) + "  labels:\n    a: 1\n"), "job.yaml:6:8: metadata.labels.a: must be a string");
}

TEST(JobErrors, DeepPodTemplateFields) {
  const std::string job = std::string(kHeader) + R"(spec:
  tasks:
    - name: t
      template:
        spec:
          hostNetwork: "yes"
)";
  EXPECT_EQ(findingsOf(job), Lines{"job.yaml:10:24: " + typeError("spec.tasks[0].template.spec.hostNetwork", "boolean", "string")});

  const std::string quantity = std::string(kHeader) + R"(spec:
  tasks:
    - template:
        spec:
          containers:
            - name: a
            - name: b
              resources:
                limits: {cpu: lots}
)";
  EXPECT_EQ(errorOf(quantity),
            "job.yaml:13:31: spec.tasks[0].template.spec.containers[1].resources.limits.cpu: quantity \"lots\" is "
            "invalid (no digits); use a number with an optional suffix such as 500m, 2Gi or 1.5");
}

// Pod-level resources stay unmodelled JSON, but a bad quantity in them is a decode error as in a
// container's resources.
TEST(JobErrors, PodLevelResourcesAreDecodedLikeAContainers) {
  const std::string job = std::string(kHeader) + R"(spec:
  tasks:
    - template:
        spec:
          resources:
            requests: {cpu: lots}
)";
  EXPECT_EQ(errorOf(job),
            "job.yaml:10:29: spec.tasks[0].template.spec.resources.requests.cpu: quantity \"lots\" is invalid (no "
            "digits); use a number with an optional suffix such as 500m, 2Gi or 1.5");
  auto ok = parseJobs(std::string(kHeader) + "spec:\n  tasks:\n    - template:\n        spec:\n          resources: "
                                             "{limits: {cpu: 2}, requests: {cpu: 500m}}\n",
                      "job.yaml");
  ASSERT_TRUE(ok.ok()) << ok.error();
  EXPECT_EQ(ok->front().job.spec.tasks[0].template_.spec.unknown,
            (UnknownFields{{"resources", R"({"limits":{"cpu":2},"requests":{"cpu":"500m"}})"}}));
}

TEST(JobErrors, DurationsTimesAndPhases) {
  EXPECT_EQ(errorOf(std::string(kHeader) + "spec:\n  policies:\n    - event: PodFailed\n      timeout: 10 minutes\n"),
            "job.yaml:8:16: spec.policies[0].timeout: must be a duration such as 90s, 10m or 1h30m (Go syntax)");
  EXPECT_EQ(errorOf(std::string(kHeader) + "  creationTimestamp: yesterday\n"),
            "job.yaml:5:22: metadata.creationTimestamp: must be an RFC 3339 time such as 2026-01-02T03:04:05Z");
}

// The API server drops a created Job's status, so one that does not decode is left out.
TEST(JobErrors, AStatusThatDoesNotDecodeIsLeftOut) {
  for (const char* status : {"status:\n  state:\n    phase: Sleeping\n", "status:\n  pending: x\n", "status: 3\n"}) {
    auto jobs = parseJobs(std::string(kHeader) + "spec:\n  queue: q\n" + status, "job.yaml");
    ASSERT_TRUE(jobs.ok()) << jobs.error();
    EXPECT_EQ(jobs->front().job.status, JobStatus{}) << status;
    EXPECT_EQ(jobs->front().job.spec.queue, "q");
    EXPECT_TRUE(jobs->front().schemaFindings.empty()) << status;
  }
}

// Under spec they are strict field validation's findings; elsewhere (the status) they are ignored.
TEST(JobErrors, UnknownKeysInFullyModelledStructs) {
  EXPECT_EQ(findingsOf(std::string(kHeader) + "spec:\n  policies:\n    - evnt: PodFailed\n"),
            Lines{"job.yaml:7:13: undeclared spec.policies[0].evnt: "});
}

TEST(JobErrors, ApiVersionAndKind) {
  EXPECT_EQ(errorOf("apiVersion: v1\nkind: ConfigMap\n"),
            "job.yaml:2:7: kind: must be \"Job\", found \"ConfigMap\"; only Volcano Jobs are accepted here");
  EXPECT_EQ(errorOf("apiVersion: batch/v1\nkind: Job\n"),
            "job.yaml:1:13: apiVersion: must be \"batch.volcano.sh/v1alpha1\", found \"batch/v1\"");
  EXPECT_EQ(errorOf("kind: Job\nmetadata: {}\n"),
            "job.yaml:1:1: apiVersion: is missing; a Volcano Job needs apiVersion: batch.volcano.sh/v1alpha1 and kind: Job");
  EXPECT_EQ(errorOf("- 1\n"), "job.yaml:1:3: job: must be an object with apiVersion: batch.volcano.sh/v1alpha1 and kind: Job");
  // Kinds are case-sensitive. A Volcano "job" is refused as one, also where other kinds are passed
  // over (the CLI's files may hold ConfigMaps, Queues, ...), rather than "no job found".
  const std::string lower = "apiVersion: batch.volcano.sh/v1alpha1\nkind: job\nmetadata: {generateName: t-}\n";
  EXPECT_EQ(errorOf(lower), "job.yaml:2:7: kind: must be \"Job\", found \"job\": kinds are case-sensitive");
  std::vector<OtherObject> others;
  auto withOthers = parseJobs("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n---\n" + lower, "job.yaml", &others);
  ASSERT_FALSE(withOthers.ok());
  EXPECT_EQ(withOthers.error(), "job.yaml:6:7: kind: must be \"Job\", found \"job\": kinds are case-sensitive");
  EXPECT_EQ(others.size(), 1u);
  EXPECT_FALSE(isJobInOtherCase("Job"));
  EXPECT_TRUE(isJobInOtherCase("JOB"));
  EXPECT_FALSE(isJobInOtherCase("Jobs"));
}

TEST(JobErrors, ErrorsInLaterDocumentsAndListItems) {
  std::string two = std::string(kHeader) + "---\n" + kHeader + "spec:\n  maxRetry: x\n";
  EXPECT_EQ(findingsOf(two), Lines{"job.yaml:11:13: " + typeError("spec.maxRetry", "integer", "string")});
  std::string list = "{\"kind\": \"List\", \"items\": [\n {\"apiVersion\": \"batch.volcano.sh/v1alpha1\", \"kind\": \"Job\",\n"
                     "  \"spec\": {\"queue\": 7}}]}";
  EXPECT_EQ(findingsOf(list, "list.json"), Lines{"list.json:3:12: " + typeError("spec.queue", "string", "integer")});
  EXPECT_EQ(errorOf("{\"kind\": \"List\", \"items\": 3}", "list.json"), "list.json:1:18: items: must be a list of jobs");
}

TEST(JobErrors, SyntaxErrorsAndEmptyInput) {
  EXPECT_EQ(errorOf("apiVersion: [a\nkind: Job\n"), "job.yaml:2:5: invalid YAML: end of sequence flow not found");
  EXPECT_EQ(errorOf("{\"apiVersion\": }", "job.json"), "job.json:1:16: invalid JSON: Invalid value.");
  // A repeated key is refused as in YAML (kubectl's strict decoding), not silently last-wins; the
  // same key in another object, or as a value, is fine.
  EXPECT_EQ(errorOf("{\"spec\": {\"tasks\": [{\"name\": \"a\",\n  \"replicas\": 1,\n  \"replicas\": 2}]}}", "job.json"),
            "job.json:3:3: invalid JSON: duplicate key \"replicas\" (first defined on line 2)");
  // Bytes that are not UTF-8, and control characters, are refused as kubectl's YAML reader refuses
  // them, at their place: yaml-cpp would take them, and the job would carry them on.
  EXPECT_EQ(errorOf("kind: Job\nmetadata: {name: \"a\xff\"}\n"), "job.yaml:2:20: invalid YAML: invalid leading UTF-8 octet");
  EXPECT_EQ(errorOf("kind: Job\nmetadata: {name: a\xc3}\n"), "job.yaml:2:19: invalid YAML: invalid trailing UTF-8 octet");
  EXPECT_EQ(errorOf("kind: Job\nmetadata: {name: \xc0\xaf}\n"),
            "job.yaml:2:18: invalid YAML: invalid length of a UTF-8 sequence");
  EXPECT_EQ(errorOf(std::string("kind: Job\nmetadata: {name: a\0b}\n", 31)),
            "job.yaml:2:19: invalid YAML: control characters are not allowed");
  EXPECT_EQ(errorOf("\xEF\xBB\xBFkind: 3\n"), "job.yaml:1:7: kind: must be a string");
  EXPECT_EQ(errorOf("{\"kind\": \"J\xffob\"}", "job.json"), "job.json:1:12: invalid JSON: Invalid encoding in string.");
  EXPECT_EQ(errorOf("{\"kind\": \"List\", \"items\": [{\"kind\": \"kind\"}, {\"kind\": \"Job\"}]}", "list.json"),
            "list.json:1:29: kind: must be \"Job\", found \"kind\"; only Volcano Jobs are accepted here");
  // Deep nesting is refused at level 1,001 (as in YAML), not parsed until the stack or memory runs out.
  const std::string deep = "{\"metadata\": {\"annotations\": " + std::string(50'000, '[') + std::string(50'000, ']') + "}}";
  EXPECT_EQ(errorOf(deep, "deep.json"), "deep.json:1:1028: invalid JSON: nesting deeper than 1000 levels");
  const std::string ok = "{\"metadata\": {\"annotations\": {\"a\": " + std::string(997, '[') + std::string(997, ']') + "}}}";
  EXPECT_EQ(errorOf(ok, "ok.json"),  // parsed: the decoder's first finding
            "ok.json:1:1: kind: is missing; a Volcano Job needs apiVersion: batch.volcano.sh/v1alpha1 and kind: Job");
  EXPECT_EQ(errorOf("# nothing here\n"), "job.yaml: no job found; expected a Volcano Job (batch.volcano.sh/v1alpha1)");
  auto missing = loadJobs("/nonexistent/job.yaml");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error(), "/nonexistent/job.yaml: cannot read file: No such file or directory");
  auto directory = loadJobs("/tmp");
  ASSERT_FALSE(directory.ok());
  EXPECT_EQ(directory.error(), "/tmp: is a directory; name a file in it");
}

}  // namespace
}  // namespace jobhost
