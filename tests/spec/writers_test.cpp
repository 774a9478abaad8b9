// JSON and YAML writers: exact layout, quoting of strings that would read back as something else,
// literal block scalars, and YAML output that re-parses to the same tree. Also UIDs.
#include <regex>
#include <set>

#include <gtest/gtest.h>

#include "host/common/source_doc.h"
#include "host/spec/job_loader.h"
#include "host/spec/uid.h"
#include "host/spec/writers.h"
#include "host/spec/yaml_doc.h"

namespace jobhost {
namespace {

rapidjson::Document json(const std::string& text) {
  auto doc = parseJsonDoc(text, "t.json");
  EXPECT_TRUE(doc.ok()) << doc.error();
  return std::move(doc->doc);
}

// toYaml's output must parse (as YAML) back to exactly the input tree.
void expectYamlRoundTrip(const rapidjson::Value& value) {
  std::string yaml = toYaml(value);
  auto back = parseYamlDocs(yaml, "out.yaml");
  ASSERT_TRUE(back.ok()) << back.error() << "\n" << yaml;
  ASSERT_EQ(back->size(), 1u) << yaml;
  EXPECT_TRUE(back->front().doc == value) << yaml << "\nre-read as " << toJson(back->front().doc, false);
}

// Numbers are converted by the host, not RapidJSON 1.1 (whose full-precision path overflows on
// a zero significand with a large exponent, found by fuzz/job_yaml): integers stay integers, doubles are correctly rounded.
TEST(JsonNumbers, ConvertExactlyAndReportTooBigOnesWithTheirPosition) {
  rapidjson::Document d = json(R"([0e300, 0.1, -0, 42, -9223372036854775808, 18446744073709551615,
                                   18446744073709551616, 1e-400, 2.5E+3])");
  EXPECT_EQ(toJson(d, false), R"([0.0,0.1,0,42,-9223372036854775808,18446744073709551615,18446744073709553000.0,0.0,2500.0])");
  EXPECT_TRUE(d[3].IsInt());
  EXPECT_TRUE(d[5].IsUint64());
  auto bad = parseJsonDoc("{\"a\": [1,\n  1e400]}", "t.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error(), "t.json:2:3: invalid JSON: Number too big to be stored in double.");
}

TEST(Writers, JsonCompactAndPretty) {
  auto doc = json(R"({"b":1,"a":[true,null,"x"],"e":{},"f":[],"d":1.5})");
  EXPECT_EQ(toJson(doc, false), R"({"b":1,"a":[true,null,"x"],"e":{},"f":[],"d":1.5})");
  EXPECT_EQ(toJson(doc, true), "{\n  \"b\": 1,\n  \"a\": [\n    true,\n    null,\n    \"x\"\n  ],\n"
                               "  \"e\": {},\n  \"f\": [],\n  \"d\": 1.5\n}");
}

TEST(Writers, YamlLayoutLikeKubectl) {
  auto doc = json(R"({"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","labels":{"a":"b"}},
    "spec":{"containers":[{"name":"c","command":["sh","-c","echo hi\necho bye\n"],"ports":[{"containerPort":80}]}],
    "volumes":[],"nodeSelector":{},"matrix":[[1,2],[]],"replicas":3,"ratio":0.5,"on":true,"none":null}})");
  EXPECT_EQ(toYaml(doc), R"(apiVersion: v1
kind: Pod
metadata:
  name: p
  labels:
    a: b
spec:
  containers:
  - name: c
    command:
    - sh
    - -c
    - |
      echo hi
      echo bye
    ports:
    - containerPort: 80
  volumes: []
  nodeSelector: {}
  matrix:
  - - 1
    - 2
  - []
  replicas: 3
  ratio: 0.5
  "on": true
  none: null
)");
}

TEST(Writers, YamlQuotesStringsThatWouldChangeType) {
  struct Case {
    const char* text;
    const char* yaml;
  };
  const Case cases[] = {
      {"true", "\"true\""},     {"False", "\"False\""},   {"yes", "\"yes\""},       {"off", "\"off\""},
      {"y", "\"y\""},           {"1", "\"1\""},           {"-1.5", "\"-1.5\""},     {"0x1F", "\"0x1F\""},
      {"0644", "\"0644\""},     {"1e3", "\"1e3\""},       {"1_000", "\"1_000\""},   {"1:30", "\"1:30\""},
      {"2026-01-02", "\"2026-01-02\""}, {"10.0.0.1", "\"10.0.0.1\""}, {".inf", "\".inf\""},
      {"", "\"\""},             {"null", "\"null\""},     {"~", "\"~\""},           {"a: b", "\"a: b\""},
      {"a #b", "\"a #b\""},     {"key:", "\"key:\""},     {"- x", "\"- x\""},       {"-", "\"-\""},
      {"---", "\"---\""},       {"...", "\"...\""},       {"*ref", "\"*ref\""},     {"&a", "\"&a\""},
      {"!tag", "\"!tag\""},     {"%x", "\"%x\""},         {"@x", "\"@x\""},         {"`x", "\"`x\""},
      {"{a}", "\"{a}\""},       {"[a]", "\"[a]\""},       {"'q'", "\"'q'\""},       {"\"q\"", "\"\\\"q\\\"\""},
      {"|x", "\"|x\""},         {">x", "\">x\""},         {"?x", "\"?x\""},         {",x", "\",x\""},
      {" lead", "\" lead\""},   {"trail ", "\"trail \""}, {"tab\there", "\"tab\\there\""},
      {"bell\a", "\"bell\\x07\""}, {"<<", "\"<<\""},     {"line\xE2\x80\xA8sep", "\"line\\Lsep\""},
      {"2Gi", "2Gi"},           {"500m", "500m"},         {"--flag=x", "--flag=x"}, {"a:b", "a:b"},
      {"a#b", "a#b"},           {"http://x/y?z=1", "http://x/y?z=1"},             {"héllo", "héllo"},
      {"volcano.sh/job-name", "volcano.sh/job-name"},     {"$(VAR)", "$(VAR)"},     {"deadbeef", "deadbeef"},
  };
  for (const auto& c : cases) {
    rapidjson::Value v(c.text, static_cast<rapidjson::SizeType>(std::strlen(c.text)));
    rapidjson::Document doc;
    doc.SetObject().AddMember("k", v, doc.GetAllocator());
    EXPECT_EQ(toYaml(doc), std::string("k: ") + c.yaml + "\n") << c.text;
    expectYamlRoundTrip(doc);
  }
}

TEST(Writers, YamlMultiLineStrings) {
  struct Case {
    const char* text;
    const char* yaml;
  };
  const Case cases[] = {
      {"a\nb", "k: |-\n  a\n  b\n"},
      {"a\nb\n", "k: |\n  a\n  b\n"},
      {"a\n\nb\n\n\n", "k: |+\n  a\n\n  b\n\n\n"},
      {"\nafter blank first line\n", "k: |\n\n  after blank first line\n"},
      {"  indented\nfirst\n", "k: \"  indented\\nfirst\\n\"\n"},
      {"a\n   \nb", "k: \"a\\n   \\nb\"\n"},
      {"crlf\r\nline", "k: \"crlf\\r\\nline\"\n"},
      {"\n", "k: \"\\n\"\n"},
      {"key: value\n# not a comment\n- not a list\n", "k: |\n  key: value\n  # not a comment\n  - not a list\n"},
  };
  for (const auto& c : cases) {
    rapidjson::Document doc;
    doc.SetObject().AddMember("k", rapidjson::Value(c.text, doc.GetAllocator()), doc.GetAllocator());
    EXPECT_EQ(toYaml(doc), c.yaml) << c.text;
    expectYamlRoundTrip(doc);
  }
  rapidjson::Document list = json(R"({"l":[{"script":"x\ny\n"}],"m":["p\nq"]})");
  EXPECT_EQ(toYaml(list), "l:\n- script: |\n    x\n    y\nm:\n- |-\n  p\n  q\n");
  expectYamlRoundTrip(list);
}

TEST(Writers, YamlKeysAndScalarRoots) {
  auto doc = json(R"({"true":1,"":2,"a: b":3,"multi\nline":4,"1.5":{"x":[{}]}})");
  EXPECT_EQ(toYaml(doc), "\"true\": 1\n\"\": 2\n\"a: b\": 3\n\"multi\\nline\": 4\n\"1.5\":\n  x:\n  - {}\n");
  expectYamlRoundTrip(doc);
  EXPECT_EQ(toYaml(rapidjson::Value("text")), "text\n");
  EXPECT_EQ(toYaml(rapidjson::Value(rapidjson::kArrayType)), "[]\n");
}

TEST(Writers, YamlNumbersKeepTheirType) {
  auto doc = json(R"({"i":-3,"u":18446744073709551615,"d":2.0,"small":1e-7,"big":1.5e300,"neg":-0.25})");
  expectYamlRoundTrip(doc);
}

TEST(Writers, FullJobYamlReparsesToTheSameTree) {
  for (const char* file : {"full_job.yaml", "canonical_job.yaml"}) {
    auto docs = loadJobs(JOBHOST_SOURCE_DIR "/tests/spec/data/" + std::string(file));
    ASSERT_TRUE(docs.ok()) << docs.error();
    expectYamlRoundTrip(docs->front().source.doc);
  }
}

TEST(Uid, RandomVersion4) {
  const std::regex v4("^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$");
  std::set<std::string> seen;
  for (int i = 0; i < 100; ++i) {
    std::string uid = newUid();
    EXPECT_TRUE(std::regex_match(uid, v4)) << uid;
    seen.insert(uid);
  }
  EXPECT_EQ(seen.size(), 100u);
}

TEST(Uid, StableVersion5MatchesPython) {
  // python3: uuid.uuid5(uuid.uuid5(uuid.NAMESPACE_DNS, "jobhost.dev"), "default/my-job")
  EXPECT_EQ(stableUid("default", "my-job"), "bbf124de-ed17-5cf2-9545-49c9d872466e");
  EXPECT_EQ(stableUid("team-a", "train"), "e2807fd4-b010-5915-ab01-f7303d4fd445");
  EXPECT_EQ(stableUid("default", "my-job"), stableUid("default", "my-job"));
  EXPECT_NE(stableUid("default", "my-job"), stableUid("default", "my-job2"));
}

}  // namespace
}  // namespace jobhost
