// Decoder: strict, typed reads of SourceDoc values for the job decoders. Every failure names
// file:line:column, the field path and what was expected. Internal to host/spec.
#pragma once

#include <exception>
#include <functional>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <rapidjson/document.h>

#include "host/common/source_doc.h"
#include "host/spec/schema_finding.h"
#include "jobhost/job.h"

namespace jobhost {

/// The first decode error of a document. Thrown and caught inside host/spec only.
class DecodeFailure : public std::exception {
 public:
  explicit DecodeFailure(std::string message) : message_(std::move(message)) {}
  const char* what() const noexcept override { return message_.c_str(); }

 private:
  std::string message_;
};

/// What to do with object keys that no Field names.
enum class UnknownKeys { Reject, Ignore };

class Decoder {
 public:
  using Value = rapidjson::Value;
  using Reader = std::function<void(const Value&, const std::string& path)>;
  struct Field {
    std::string_view key;
    Reader read;
  };

  /// With a `schemaRoot` ("spec"), a wrong JSON type or an undeclared key at or under it is a
  /// SchemaFinding, as the API server reports it, and decoding goes on; elsewhere it is a failure.
  explicit Decoder(const SourceDoc& source, std::string schemaRoot = {})
      : source_(source), schemaRoot_(std::move(schemaRoot)) {}

  /// Throws DecodeFailure "file:line:col: <path>: <problem>".
  [[noreturn]] void fail(const std::string& path, const std::string& problem) const;
  /// `v` at `path` is not of the OpenAPI type `type`: records a SchemaFinding under the schema
  /// root, else fails with `problem`. The caller leaves its target unset.
  void wrongType(const Value& v, const std::string& path, std::string_view type, const std::string& problem) const;
  /// The SchemaFindings recorded so far, in document order.
  std::vector<SchemaFinding> takeSchemaFindings() const { return std::move(schemaFindings_); }

  /// Reads object `v`: each known key goes to its reader (a null value means "unset" and is
  /// skipped); every other key is kept in `unknown` as compact JSON, in input order.
  void fields(const Value& v, const std::string& path, std::initializer_list<Field> known,
              UnknownFields& unknown) const;
  /// The same for structs without an `unknown` store: other keys are an error or ignored.
  void fields(const Value& v, const std::string& path, std::initializer_list<Field> known,
              UnknownKeys policy = UnknownKeys::Reject) const;

  /// False (after wrongType) when `v` is not an object / not a list.
  [[nodiscard]] bool expectObject(const Value& v, const std::string& path) const;
  [[nodiscard]] bool expectArray(const Value& v, const std::string& path) const;

  /// A reader that decodes into `target` with the read() overload for its type.
  template <class T>
  Reader into(T& target) const;
  /// A reader for an RFC 3339 time.
  Reader time(std::optional<TimeMs>& target) const;

 private:
  bool underSchemaRoot(const std::string& path) const;

  const SourceDoc& source_;
  std::string schemaRoot_;
  mutable std::vector<SchemaFinding> schemaFindings_;
};

std::string compactJson(const rapidjson::Value& value);

void read(const Decoder& d, const rapidjson::Value& v, const std::string& path, std::string& out);
void read(const Decoder& d, const rapidjson::Value& v, const std::string& path, bool& out);
void read(const Decoder& d, const rapidjson::Value& v, const std::string& path, int32_t& out);
void read(const Decoder& d, const rapidjson::Value& v, const std::string& path, Quantity& out);
void read(const Decoder& d, const rapidjson::Value& v, const std::string& path, Duration& out);

template <class T>
void read(const Decoder& d, const rapidjson::Value& v, const std::string& path, std::vector<T>& out) {
  if (!d.expectArray(v, path)) return;
  out.clear();
  for (rapidjson::SizeType i = 0; i < v.Size(); ++i) {
    T item{};
    read(d, v[i], indexPath(path, i), item);
    out.push_back(std::move(item));
  }
}

template <class T>
void read(const Decoder& d, const rapidjson::Value& v, const std::string& path, std::optional<T>& out) {
  T value{};
  read(d, v, path, value);
  out = std::move(value);
}

/// Maps (labels, resources, plugins, ...): a null entry becomes the default value.
template <class T>
void read(const Decoder& d, const rapidjson::Value& v, const std::string& path,
          std::map<std::string, T>& out) {
  if (!d.expectObject(v, path)) return;
  out.clear();
  for (auto it = v.MemberBegin(); it != v.MemberEnd(); ++it) {
    std::string key(it->name.GetString(), it->name.GetStringLength());
    T value{};
    if (!it->value.IsNull()) read(d, it->value, childPath(path, key), value);
    out[key] = std::move(value);
  }
}

template <class T>
Decoder::Reader Decoder::into(T& target) const {
  return [this, &target](const Value& v, const std::string& path) { read(*this, v, path, target); };
}

}  // namespace jobhost
