// Decoder primitives: object dispatch with unknown-key handling, and reads of strings, booleans,
// 32-bit integers, quantities, Go durations and RFC 3339 times with precise error messages.
#include "host/spec/decoder.h"

#include <charconv>
#include <cmath>
#include <limits>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "host/spec/duration.h"
#include "host/spec/timestamp.h"

namespace jobhost {
namespace {

std::string keyOf(const rapidjson::Value& name) { return {name.GetString(), name.GetStringLength()}; }

const Decoder::Field* findField(std::initializer_list<Decoder::Field> known, std::string_view key) {
  for (const auto& field : known)
    if (field.key == key) return &field;
  return nullptr;
}

std::string allowedKeys(std::initializer_list<Decoder::Field> known) {
  std::string list;
  for (const auto& field : known) list += (list.empty() ? "" : ", ") + std::string(field.key);
  return list;
}

// The text of a JSON number, for quantities written without quotes (cpu: 1.5).
std::string numberText(const rapidjson::Value& v) {
  if (v.IsInt64()) return std::to_string(v.GetInt64());
  if (v.IsUint64()) return std::to_string(v.GetUint64());
  char buffer[64];
  auto result = std::to_chars(buffer, buffer + sizeof buffer, v.GetDouble());
  return std::string(buffer, result.ptr);
}

}  // namespace

void Decoder::fail(const std::string& path, const std::string& problem) const {
  throw DecodeFailure(source_.where(path) + ": " + (path.empty() ? "job" : path) + ": " + problem);
}

bool Decoder::underSchemaRoot(const std::string& path) const {
  if (schemaRoot_.empty() || !path.starts_with(schemaRoot_)) return false;
  return path.size() == schemaRoot_.size() || path[schemaRoot_.size()] == '.';
}

void Decoder::wrongType(const Value& v, const std::string& path, std::string_view type,
                        const std::string& problem) const {
  if (!underSchemaRoot(path)) fail(path, problem);
  schemaFindings_.push_back({false, path, schemaTypeError(path, v, type)});
}

bool Decoder::expectObject(const Value& v, const std::string& path) const {
  if (!v.IsObject()) wrongType(v, path, "object", "must be an object");
  return v.IsObject();
}

bool Decoder::expectArray(const Value& v, const std::string& path) const {
  if (!v.IsArray()) wrongType(v, path, "array", "must be a list");
  return v.IsArray();
}

void Decoder::fields(const Value& v, const std::string& path, std::initializer_list<Field> known,
                     UnknownFields& unknown) const {
  if (!expectObject(v, path)) return;
  for (auto it = v.MemberBegin(); it != v.MemberEnd(); ++it) {
    std::string key = keyOf(it->name);
    if (const Field* field = findField(known, key)) {
      if (!it->value.IsNull()) field->read(it->value, childPath(path, key));
    } else {
      unknown.emplace_back(key, compactJson(it->value));
    }
  }
}

void Decoder::fields(const Value& v, const std::string& path, std::initializer_list<Field> known,
                     UnknownKeys policy) const {
  if (!expectObject(v, path)) return;
  for (auto it = v.MemberBegin(); it != v.MemberEnd(); ++it) {
    std::string key = keyOf(it->name);
    if (const Field* field = findField(known, key)) {
      if (!it->value.IsNull()) field->read(it->value, childPath(path, key));
    } else if (policy == UnknownKeys::Reject) {
      const std::string at = childPath(path, key);
      if (!underSchemaRoot(at)) fail(at, "unknown field; allowed here: " + allowedKeys(known));
      schemaFindings_.push_back({true, at, {}});
    }
  }
}

Decoder::Reader Decoder::time(std::optional<TimeMs>& target) const {
  return [this, &target](const Value& v, const std::string& path) {
    std::optional<TimeMs> parsed;
    if (v.IsString()) parsed = parseRfc3339({v.GetString(), v.GetStringLength()});
    if (!parsed) fail(path, "must be an RFC 3339 time such as 2026-01-02T03:04:05Z");
    target = parsed;
  };
}

std::string compactJson(const rapidjson::Value& value) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  value.Accept(writer);
  return {buffer.GetString(), buffer.GetSize()};
}

void read(const Decoder& d, const rapidjson::Value& v, const std::string& path, std::string& out) {
  if (!v.IsString()) return d.wrongType(v, path, "string", "must be a string");
  out.assign(v.GetString(), v.GetStringLength());
}

void read(const Decoder& d, const rapidjson::Value& v, const std::string& path, bool& out) {
  if (!v.IsBool()) return d.wrongType(v, path, "boolean", "must be true or false");
  out = v.GetBool();
}

void read(const Decoder& d, const rapidjson::Value& v, const std::string& path, int32_t& out) {
  constexpr double kMin = std::numeric_limits<int32_t>::min(), kMax = std::numeric_limits<int32_t>::max();
  const bool integral = v.IsInt64() || v.IsUint64() || (v.IsDouble() && std::trunc(v.GetDouble()) == v.GetDouble());
  if (!integral) return d.wrongType(v, path, "integer", "must be an integer");
  if (v.IsInt()) {
    out = v.GetInt();
  } else if (v.IsDouble() && v.GetDouble() >= kMin && v.GetDouble() <= kMax) {
    out = static_cast<int32_t>(v.GetDouble());
  } else {
    d.fail(path, numberText(v) + " is out of range: must be an integer between -2147483648 and 2147483647");
  }
}

void read(const Decoder& d, const rapidjson::Value& v, const std::string& path, Quantity& out) {
  std::string text;
  if (v.IsString()) text.assign(v.GetString(), v.GetStringLength());
  else if (v.IsNumber()) text = numberText(v);
  else d.fail(path, "must be a quantity such as 500m, 2Gi or 1.5");
  std::string why;
  auto parsed = Quantity::parse(text, &why);
  if (!parsed) d.fail(path, why);
  out = *parsed;
}

void read(const Decoder& d, const rapidjson::Value& v, const std::string& path, Duration& out) {
  if (!v.IsString()) return d.wrongType(v, path, "string", "must be a duration such as 90s, 10m or 1h30m (Go syntax)");
  auto parsed = parseGoDuration({v.GetString(), v.GetStringLength()});
  if (!parsed) d.fail(path, "must be a duration such as 90s, 10m or 1h30m (Go syntax)");
  out = *parsed;
}

}  // namespace jobhost
