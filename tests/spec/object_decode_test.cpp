// ConfigMaps and Secrets declared in job files: base64 as Go's StdEncoding decodes it, data and
// binaryData, data and stringData, defaults, and the API server's checks, each error at file:line:col.
#include <gtest/gtest.h>

#include "host/spec/base64.h"
#include "host/spec/object_decode.h"
#include "host/spec/yaml_doc.h"

namespace jobhost {
namespace {

SourceDoc docOf(const std::string& text) {
  auto docs = parseYamlDocs(text, "objects.yaml");
  EXPECT_TRUE(docs.ok()) << docs.error();
  return std::move(docs->front());
}

std::string configMapError(const std::string& text) {
  auto cm = decodeConfigMap(docOf(text));
  EXPECT_FALSE(cm.ok());
  return cm.ok() ? "" : cm.error();
}

std::string secretError(const std::string& text) {
  auto s = decodeSecret(docOf(text));
  EXPECT_FALSE(s.ok());
  return s.ok() ? "" : s.error();
}

std::string decodeOrWhere(std::string_view text) {
  size_t bad = 99;
  auto bytes = base64Decode(text, &bad);
  return bytes ? *bytes : "bad at " + std::to_string(bad);
}

TEST(Base64, DecodesPaddedTextAndSkipsLineBreaksAsGoDoes) {
  const std::pair<std::string_view, std::string> cases[] = {
      {"", ""}, {"aGVsbG8=", "hello"}, {"aGk=", "hi"}, {"aA==", "h"}, {"aGVs\nbG8=\n", "hello"},
      {"AP8A", std::string("\0\xff\0", 3)}};
  for (const auto& [text, bytes] : cases) EXPECT_EQ(decodeOrWhere(text), bytes) << text;
  EXPECT_EQ(base64Encode(std::string("\0\xff\0", 3)), "AP8A");
  EXPECT_EQ(decodeOrWhere(base64Encode("any bytes, round trip")), "any bytes, round trip");
}

TEST(Base64, NamesTheFirstByteThatIsNotValid) {
  // A group cut short is reported where it began; nothing may follow the padding.
  const std::pair<std::string_view, size_t> cases[] = {{"ab$d", 2}, {"aGVsbG8", 4}, {"aA=", 0}, {"aA==aA==", 4},
                                                       {"a===", 1},  {"aA=x", 3},    {"aGk= ", 4}};
  for (const auto& [text, at] : cases) EXPECT_EQ(decodeOrWhere(text), "bad at " + std::to_string(at)) << text;
}

TEST(ConfigMapDecode, DataAndBinaryDataInTheDefaultNamespace) {
  auto cm = decodeConfigMap(docOf(R"(apiVersion: v1
kind: ConfigMap
metadata: {name: train-config, labels: {app: demo}}
data: {lr: "0.01", empty: ""}
binaryData: {blob: AP8A}
immutable: true
)"));
  ASSERT_TRUE(cm.ok()) << cm.error();
  EXPECT_EQ(cm->metadata.name, "train-config");
  EXPECT_EQ(cm->metadata.namespace_, "default");
  EXPECT_EQ(cm->metadata.labels.at("app"), "demo");
  EXPECT_EQ(cm->data, (std::map<std::string, std::string>{{"lr", "0.01"}, {"empty", ""}, {"blob", std::string("\0\xff\0", 3)}}));
}

TEST(ConfigMapDecode, ErrorsNameTheFieldAndWhatTheApiServerWants) {
  EXPECT_EQ(configMapError("apiVersion: v2\nkind: ConfigMap\nmetadata: {name: c}\n"),
            "objects.yaml:1:13: apiVersion: must be \"v1\" for a ConfigMap, found \"v2\"");
  EXPECT_EQ(configMapError("apiVersion: v1\nkind: ConfigMap\nmetadata: {}\n"),
            "objects.yaml:3:11: metadata.name: is required");
  EXPECT_EQ(configMapError("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: Big}\n"),
            "objects.yaml:3:18: metadata.name: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric "
            "characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex "
            "used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')");
  EXPECT_EQ(configMapError("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: 1}\n"),
            "objects.yaml:4:11: data.a: must be a string");
  EXPECT_EQ(configMapError("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {\"a/b\": x}\n"),
            "objects.yaml:4:15: data.a/b: a valid config key must consist of alphanumeric characters, '-', '_' or '.' "
            "(e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')");
  EXPECT_EQ(configMapError("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: x}\nbinaryData: {a: eA==}\n"),
            "objects.yaml:5:17: binaryData.a: duplicate of key present in data");
  EXPECT_EQ(configMapError("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\nbinaryData: {a: \"e$==\"}\n"),
            "objects.yaml:4:17: binaryData.a: is not base64: illegal base64 data at input byte 1");
  const std::string big(512 * 1024, 'x');
  EXPECT_EQ(configMapError("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: " + big + ", b: " + big +
                           "}\nbinaryData: {c: eA==}\n"),
            "objects.yaml:5:13: binaryData: Too long: must have at most 1048576 bytes (the values hold 1048577)");
  EXPECT_TRUE(decodeConfigMap(docOf("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {a: " + big +
                                    ", b: " + big + "}\n"))
                  .ok());
  EXPECT_EQ(configMapError("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\nspec: {}\n"),
            "objects.yaml:4:7: spec: unknown field; allowed here: apiVersion, kind, metadata, data, binaryData, "
            "immutable");
}

TEST(SecretDecode, DataIsBase64AndStringDataWinsOverIt) {
  auto s = decodeSecret(docOf(R"(apiVersion: v1
kind: Secret
metadata: {name: hf-token, namespace: ml}
data: {token: c2VjcmV0, user: Ym9i}
stringData: {user: alice}
)"));
  ASSERT_TRUE(s.ok()) << s.error();
  EXPECT_EQ(s->metadata.namespace_, "ml");
  EXPECT_EQ(s->type, "Opaque");
  EXPECT_FALSE(s->immutable.has_value());
  EXPECT_EQ(s->data, (std::map<std::string, std::string>{{"token", "secret"}, {"user", "alice"}}));
}

TEST(SecretDecode, TypesGetTheKeysTheyRequire) {
  auto ok = decodeSecret(docOf("apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ntype: kubernetes.io/ssh-auth\n"
                               "stringData: {ssh-privatekey: k}\nimmutable: true\n"));
  ASSERT_TRUE(ok.ok()) << ok.error();
  EXPECT_EQ(ok->type, "kubernetes.io/ssh-auth");
  EXPECT_EQ(ok->immutable, true);
  EXPECT_EQ(secretError("apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ntype: kubernetes.io/ssh-auth\n"),
            "objects.yaml:4:7: type: a kubernetes.io/ssh-auth Secret needs the key \"ssh-privatekey\" in data or "
            "stringData");
  EXPECT_EQ(secretError("apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ntype: kubernetes.io/tls\n"
                        "stringData: {tls.crt: c}\n"),
            "objects.yaml:4:7: type: a kubernetes.io/tls Secret needs the key \"tls.key\" in data or stringData");
  EXPECT_EQ(secretError("apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ntype: kubernetes.io/basic-auth\n"),
            "objects.yaml:4:7: type: a kubernetes.io/basic-auth Secret needs the key \"username\" in data or "
            "stringData");
  EXPECT_TRUE(decodeSecret(docOf("apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ntype: kubernetes.io/basic-auth\n"
                                 "stringData: {password: p}\n"))
                  .ok());
  EXPECT_EQ(secretError("apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ndata: {token: \"not base64\"}\n"),
            "objects.yaml:4:15: data.token: is not base64: illegal base64 data at input byte 3");
  EXPECT_EQ(secretError("apiVersion: v1\nkind: Secret\nmetadata: {name: s}\nstringData: {a: " +
                        std::string(1024 * 1024 + 1, 'x') + "}\n"),
            "objects.yaml:4:13: stringData: Too long: must have at most 1048576 bytes (the values hold 1048577)");
  EXPECT_EQ(secretError("apiVersion: v1\nkind: Secret\nmetadata: {name: s}\nimmutable: sure\n"),
            "objects.yaml:4:12: immutable: must be true or false");
}

}  // namespace
}  // namespace jobhost
