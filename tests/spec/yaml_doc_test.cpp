// YAML -> SourceDoc: scalar and key typing (kubectl's, YAML 1.1), positions by field path, documents,
// anchors and merge keys, and syntax errors with file:line:column.
#include <gtest/gtest.h>

#include "host/spec/writers.h"
#include "host/spec/yaml_doc.h"

namespace jobhost {
namespace {

SourceDoc parseOne(const std::string& text) {
  auto docs = parseYamlDocs(text, "t.yaml");
  EXPECT_TRUE(docs.ok()) << docs.error();
  EXPECT_EQ(docs->size(), 1u);
  return std::move(docs->front());
}

std::string asJson(const std::string& yaml) { return toJson(parseOne(yaml).doc, false); }

std::string errorOf(const std::string& text) {
  auto docs = parseYamlDocs(text, "t.yaml");
  EXPECT_FALSE(docs.ok());
  return docs.ok() ? "" : docs.error();
}

struct ScalarCase {
  const char* yaml;
  const char* json;
};

// As kubectl types them (go-yaml v2, YAML 1.1): `value: yes` reaches the API server as true.
TEST(YamlDoc, ScalarTypingFollowsKubectl) {
  const ScalarCase cases[] = {
      {"true", "true"},         {"True", "true"},         {"FALSE", "false"},      {"yes", "true"},
      {"on", "true"},           {"Y", "true"},            {"n", "false"},          {"NO", "false"},
      {"Off", "false"},         {"yES", "\"yES\""},       {"oN", "\"oN\""},        {"'yes'", "\"yes\""},
      {"null", "null"},         {"Null", "null"},        {"~", "null"},
      {"", "null"},             {"\"true\"", "\"true\""}, {"'1'", "\"1\""},        {"!!str 12", "\"12\""},
      {"12", "12"},             {"-7", "-7"},             {"+3", "3"},             {"0x1F", "31"},
      {"0o17", "15"},           {"0644", "420"},          {"09", "9"},             {"0", "0"},
      {"1.5", "1.5"},           {"-.5", "-0.5"},          {"1e3", "1000.0"},       {"2.", "2.0"},
      {"9223372036854775807", "9223372036854775807"},     {"18446744073709551615", "18446744073709551615"},
      {"-9223372036854775808", "-9223372036854775808"},   {"99999999999999999999", "100000000000000000000.0"},
      {"0x1FFFFFFFFFFFFFFFFF", "\"0x1FFFFFFFFFFFFFFFFF\""}, {"500m", "\"500m\""}, {"2Gi", "\"2Gi\""},
      {"1_000", "1000"},       {"-1_0.5", "-10.5"},      {"0X1F", "31"},          {"0B101", "5"},
      {"_1", "\"_1\""},         {"2026-01-02", "\"2026-01-02\""},                   {"1.2.3", "\"1.2.3\""},   {"abc", "\"abc\""},      {"!!int 7", "7"},
      {"!!float 7", "7.0"},     {"!!bool yes", "true"},   {"!custom text", "\"text\""},
      {"1e999", "\"1e999\""},   {"-1_0e999", "\"-1_0e999\""},                       {"1e-999", "0.0"},
      {"-.5e-999", "-0.0"},
  };
  for (const auto& c : cases) EXPECT_EQ(asJson(std::string("v: ") + c.yaml), std::string("{\"v\":") + c.json + "}") << c.yaml;
}

// sigs.k8s.io/yaml makes go-yaml v2's typed keys text: `yes:` reaches the API server as "true".
TEST(YamlDoc, MappingKeysAreNamedAsKubectlNamesThem) {
  const ScalarCase cases[] = {
      {"yes", "true"},          {"Off", "false"},         {"'yes'", "yes"},         {"\"on\"", "on"},
      {"!!str 010", "010"},     {"0x1F", "31"},           {"010", "8"},             {"1_000", "1000"},
      {"+7", "7"},              {"1000000", "1000000"},   {"1.50", "1.5"},          {"1e3", "1000"},
      {"1e6", "1e+06"},         {"123456.7", "123456.7"}, {"0.0001", "0.0001"},     {"0.00001", "1e-05"},
      {"-2.5e-7", "-2.5e-07"},  {"3.14159265358979", "3.1415927"},                   {"1e39", ".inf"},
      {"-0.0", "-0"},           {"99999999999999999999", "1e+20"},                  {".Inf", ".inf"},
      {"-.inf", "-.inf"},       {".NaN", ".nan"},         {"1.2.3", "1.2.3"},       {"2026-01-02", "2026-01-02"},
      {"1e999", "1e999"},       {"1e-999", "0"},          {"!!int 0x10", "16"},     {"abc", "abc"},           {"y", "true"},            {"N", "false"},
  };
  for (const auto& c : cases)
    EXPECT_EQ(asJson(std::string(c.yaml) + ": v"), std::string("{\"") + c.json + "\":\"v\"}") << c.yaml;
  EXPECT_EQ(asJson("base: &b {yes: 1}\nm:\n  <<: *b\n  true: 2\n"), R"({"base":{"true":1},"m":{"true":2}})");
  EXPECT_EQ(errorOf("a: 1\nyes: 2\ntrue: 3\n"),
            "t.yaml:3:1: invalid YAML: duplicate key \"true\" (first defined on line 2): kubectl names the keys "
            "\"yes\" and \"true\" both \"true\"; quote a key to keep it as text");
  EXPECT_EQ(errorOf("{y: 1, on: 2}"),
            "t.yaml:1:8: invalid YAML: duplicate key \"true\" (first defined on line 1): kubectl names the keys "
            "\"y\" and \"on\" both \"true\"; quote a key to keep it as text");
  EXPECT_EQ(errorOf("a:\n  18446744073709551615: x\n"),
            "t.yaml:2:3: invalid YAML: mapping key \"18446744073709551615\" is a null or an integer beyond int64, "
            "which kubectl cannot turn into a JSON field name; quote it to keep it as text");
  EXPECT_EQ(errorOf("!!int abc: x\n"), "t.yaml:1:1: invalid YAML: \"abc\" is not a valid !!int");
}

TEST(YamlDoc, BlockScalarsAndFlowCollections) {
  EXPECT_EQ(asJson("script: |\n  echo a\n  echo b\nfolded: >-\n  one\n  two\nlist: [1, \"x\", {k: v}]\nempty: {}\n"),
            R"({"script":"echo a\necho b\n","folded":"one two","list":[1,"x",{"k":"v"}],"empty":{}})");
}

TEST(YamlDoc, PositionsAreOneBasedPerPath) {
  SourceDoc doc = parseOne(R"(spec:
  tasks:
    - name: a
      template:
        spec:
          containers:
            - name: first
            - name: second
  empty:
)");
  EXPECT_EQ(doc.where(""), "t.yaml:1:1");
  EXPECT_EQ(doc.where("spec.tasks"), "t.yaml:3:5");
  EXPECT_EQ(doc.where("spec.tasks[0]"), "t.yaml:3:7");
  EXPECT_EQ(doc.where("spec.tasks[0].name"), "t.yaml:3:13");
  EXPECT_EQ(doc.where("spec.tasks[0].template.spec.containers[1].name"), "t.yaml:8:21");
  EXPECT_EQ(doc.where("spec.empty"), "t.yaml:9:3");  // a null value points at its key
  EXPECT_EQ(doc.where("spec.tasks[0].template.spec.containers[1].image"), "t.yaml:8:15");  // nearest ancestor
}

// yaml-cpp 0.7 loops for ever on these (found by fuzz/job_yaml); the host reports them instead,
// at the token it cannot get past.
TEST(YamlDoc, AStrayCommaAfterATopLevelNodeIsAnErrorNotAHang) {
  const std::string message = "invalid YAML: a ',' outside a [ ] or { } collection; remove it or quote the value";
  EXPECT_EQ(errorOf(","), "t.yaml:1:1: " + message);
  EXPECT_EQ(errorOf("\"a\" ,"), "t.yaml:1:5: " + message);
  EXPECT_EQ(errorOf("a: 1\n---\n,\n"), "t.yaml:3:1: " + message);
  EXPECT_EQ(asJson("a: x, y\nb: [1, 2]\n"), R"({"a":"x, y","b":[1,2]})");
}

TEST(YamlDoc, OtherTokensTheParserCannotGetPastAreErrorsNotHangs) {
  // fuzz/job_yaml, 10-minute run: no ',' at all, bytes around a '?' key (its control characters,
  // now refused before parsing, replaced by printable ones that still stop yaml-cpp).
  const std::string text("\"A\"$x\n0\"A&\"$x\n00\n000\n?\n000\n000");
  EXPECT_EQ(errorOf(text),
            "t.yaml:5:1: invalid YAML: the parser cannot get past this token; remove the stray characters or quote "
            "the value");
}

TEST(YamlDoc, MultipleDocumentsSkipEmptyOnes) {
  auto docs = parseYamlDocs("---\na: 1\n---\n---\n# comment only\n---\n~\n---\nb: 2\n...\n", "m.yaml");
  ASSERT_TRUE(docs.ok()) << docs.error();
  ASSERT_EQ(docs->size(), 2u);
  EXPECT_EQ(toJson((*docs)[0].doc, false), R"({"a":1})");
  EXPECT_EQ(toJson((*docs)[1].doc, false), R"({"b":2})");
  EXPECT_EQ((*docs)[1].where("b"), "m.yaml:9:4");
  EXPECT_EQ((*docs)[1].file, "m.yaml");
  auto none = parseYamlDocs("", "e.yaml");
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
}

TEST(YamlDoc, AnchorsAliasesAndMergeKeys) {
  EXPECT_EQ(asJson(R"(base: &base {image: busybox, cmd: [sh]}
a: *base
b:
  <<: *base
  image: alpine
c:
  <<: [{x: 1}, {x: 2, z: 2}]
)"),
            R"({"base":{"image":"busybox","cmd":["sh"]},"a":{"image":"busybox","cmd":["sh"]},)"
            R"("b":{"image":"alpine","cmd":["sh"]},"c":{"x":1,"z":2}})");
}

TEST(YamlDoc, Errors) {
  EXPECT_EQ(errorOf("a: [1, 2\nb: 3\n"), "t.yaml:2:2: invalid YAML: end of sequence flow not found");
  EXPECT_EQ(errorOf("a: b: c\n"), "t.yaml:1:5: invalid YAML: illegal map value");
  EXPECT_EQ(errorOf("a: 1\nb: 2\na: 3\n"), "t.yaml:3:1: invalid YAML: duplicate key \"a\" (first defined on line 1)");
  EXPECT_EQ(errorOf("? [k]\n: v\n"), "t.yaml:1:3: invalid YAML: mapping keys must be non-null scalars");
  EXPECT_EQ(errorOf("x: .inf\n"),
            "t.yaml:1:4: invalid YAML: \".inf\" (infinity or NaN) cannot be represented in JSON; quote it to keep it as text");
  EXPECT_EQ(errorOf("x: !!int abc\n"), "t.yaml:1:4: invalid YAML: \"abc\" is not a valid !!int");
  EXPECT_EQ(errorOf("x:\n  <<: 3\n"),
            "t.yaml:2:3: invalid YAML: the value of a << merge key must be a mapping or a list of mappings");
  EXPECT_EQ(errorOf("a: *nothing\n"), "t.yaml:1:4: invalid YAML: the referenced anchor is not defined");
  // yaml-cpp's own words for this are "bad file".
  EXPECT_EQ(errorOf("x: " + std::string(600, '[') + std::string(600, ']') + "\n"),
            "t.yaml:1:1204: invalid YAML: nesting deeper than 500 levels, the YAML parser's limit; flatten the document");
}

}  // namespace
}  // namespace jobhost
