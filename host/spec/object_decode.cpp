// ConfigMap and Secret decoding (see object_decode.h), with the API server's validation messages
// for names, keys, base64 data, the 1 MiB data limit and type-required keys.
#include "host/spec/object_decode.h"

#include <map>

#include "host/spec/base64.h"
#include "host/spec/pod_decode.h"
#include "host/workload/k8s_names.h"

namespace jobhost {
namespace {

using Value = rapidjson::Value;
using Bytes = std::map<std::string, std::string>;

// A field read elsewhere (apiVersion, kind) or accepted and not kept (a ConfigMap's immutable).
void ignore(const Value&, const std::string&) {}

void checkTypeMeta(const Decoder& d, const Value& root, const std::string& kind) {
  if (!root.IsObject()) d.fail("", "must be an object (apiVersion: v1, kind: " + kind + ")");
  if (stringAt(root, {"apiVersion"}) != "v1")
    d.fail("apiVersion", "must be \"v1\" for a " + kind + ", found \"" + stringAt(root, {"apiVersion"}) + "\"");
}

void checkMeta(const Decoder& d, ObjectMeta& meta) {
  if (meta.name.empty()) d.fail("metadata.name", "is required");
  if (auto errs = k8s::isDNS1123Subdomain(meta.name); !errs.empty()) d.fail("metadata.name", errs.front());
  if (meta.namespace_.empty()) meta.namespace_ = "default";
}

void checkKeys(const Decoder& d, const Bytes& values, const std::string& field) {
  for (const auto& [key, value] : values)
    if (auto errs = k8s::isConfigMapKey(key); !errs.empty()) d.fail(childPath(field, key), errs.front());
}

// Each base64 value of `encoded` decoded into `out`.
void decodeAll(const Decoder& d, const Bytes& encoded, const std::string& field, Bytes& out) {
  for (const auto& [key, text] : encoded) {
    size_t bad = 0;
    auto bytes = base64Decode(text, &bad);
    if (!bytes) d.fail(childPath(field, key), "is not base64: illegal base64 data at input byte " + std::to_string(bad));
    out[key] = std::move(*bytes);
  }
}

// The API server's limit on a ConfigMap's or Secret's data (MaxSecretSize), over the decoded values.
void checkSize(const Decoder& d, const Bytes& values, const std::string& field) {
  constexpr size_t kMaxBytes = 1024 * 1024;
  size_t total = 0;
  for (const auto& [key, value] : values) total += value.size();
  if (total > kMaxBytes)
    d.fail(field, "Too long: must have at most 1048576 bytes (the values hold " + std::to_string(total) + ")");
}

// The keys the API server requires for a Secret of this type.
void checkSecretType(const Decoder& d, const Secret& s) {
  auto require = [&](const std::string& key) {
    if (!s.data.count(key))
      d.fail("type", "a " + s.type + " Secret needs the key \"" + key + "\" in data or stringData");
  };
  if (s.type == "kubernetes.io/ssh-auth") require("ssh-privatekey");
  if (s.type == "kubernetes.io/tls") {
    require("tls.crt");
    require("tls.key");
  }
  if (s.type == "kubernetes.io/dockerconfigjson") require(".dockerconfigjson");
  if (s.type == "kubernetes.io/dockercfg") require(".dockercfg");
  if (s.type == "kubernetes.io/basic-auth" && !s.data.count("username") && !s.data.count("password"))
    require("username");
}

template <class Decode>
auto decoded(const SourceDoc& source, const char* kind, Decode decode) -> Expected<decltype(decode(Decoder(source)))> {
  using R = Expected<decltype(decode(Decoder(source)))>;
  try {
    return decode(Decoder(source));
  } catch (const DecodeFailure& e) {
    return R::failure(e.what());
  } catch (const std::exception& e) {
    return R::failure(source.file + ": cannot decode " + kind + ": " + e.what());
  }
}

}  // namespace

Expected<ConfigMap> decodeConfigMap(const SourceDoc& source) {
  return decoded(source, "ConfigMap", [&](const Decoder& d) {
    checkTypeMeta(d, source.doc, "ConfigMap");
    ConfigMap cm;
    Bytes binary;
    d.fields(source.doc, "",
             {{"apiVersion", ignore},
              {"kind", ignore},
              {"metadata", d.into(cm.metadata)},
              {"data", d.into(cm.data)},
              {"binaryData", d.into(binary)},
              {"immutable", ignore}});
    checkMeta(d, cm.metadata);
    checkKeys(d, cm.data, "data");
    checkKeys(d, binary, "binaryData");
    for (const auto& [key, value] : binary)
      if (cm.data.count(key)) d.fail(childPath("binaryData", key), "duplicate of key present in data");
    decodeAll(d, binary, "binaryData", cm.data);
    checkSize(d, cm.data, binary.empty() ? "data" : "binaryData");
    return cm;
  });
}

Expected<Secret> decodeSecret(const SourceDoc& source) {
  return decoded(source, "Secret", [&](const Decoder& d) {
    checkTypeMeta(d, source.doc, "Secret");
    Secret s;
    Bytes encoded, plain;
    d.fields(source.doc, "",
             {{"apiVersion", ignore},
              {"kind", ignore},
              {"metadata", d.into(s.metadata)},
              {"type", d.into(s.type)},
              {"data", d.into(encoded)},
              {"stringData", d.into(plain)},
              {"immutable", d.into(s.immutable)}});
    checkMeta(d, s.metadata);
    checkKeys(d, encoded, "data");
    checkKeys(d, plain, "stringData");
    decodeAll(d, encoded, "data", s.data);
    for (auto& [key, value] : plain) s.data[key] = std::move(value);  // stringData wins, as on the API server
    checkSize(d, s.data, plain.empty() ? "data" : "stringData");
    if (s.type.empty()) s.type = "Opaque";
    checkSecretType(d, s);
    return s;
  });
}

}  // namespace jobhost
