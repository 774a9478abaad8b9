// JSON building helpers for the encoders: strings, maps, resource lists, unknown-field values and
// the omitempty-aware JsonObject.
#include "host/spec/json_build.h"

#include "host/spec/timestamp.h"

namespace jobhost {

rapidjson::Value jsonString(std::string_view text, JsonAllocator& allocator) {
  return rapidjson::Value(text.data(), static_cast<rapidjson::SizeType>(text.size()), allocator);
}

rapidjson::Value jsonStrings(const std::vector<std::string>& items, JsonAllocator& allocator) {
  return jsonArray(items, allocator, [](const std::string& s, JsonAllocator& a) { return jsonString(s, a); });
}

rapidjson::Value jsonStringMap(const std::map<std::string, std::string>& map, JsonAllocator& allocator) {
  rapidjson::Value out(rapidjson::kObjectType);
  for (const auto& [key, value] : map) out.AddMember(jsonString(key, allocator), jsonString(value, allocator), allocator);
  return out;
}

rapidjson::Value jsonResources(const ResourceList& resources, JsonAllocator& allocator) {
  rapidjson::Value out(rapidjson::kObjectType);
  for (const auto& [name, quantity] : resources)
    out.AddMember(jsonString(name, allocator), jsonString(quantity.toString(), allocator), allocator);
  return out;
}

rapidjson::Value jsonFromText(std::string_view text, JsonAllocator& allocator) {
  rapidjson::Document parsed(&allocator);
  parsed.Parse<rapidjson::kParseFullPrecisionFlag>(text.data(), text.size());
  if (parsed.HasParseError()) return jsonString(text, allocator);
  rapidjson::Value out;
  out.Swap(parsed);  // the tree lives in `allocator`, so it outlives `parsed`
  return out;
}

JsonObject& JsonObject::set(std::string_view key, rapidjson::Value value) {
  object_.AddMember(jsonString(key, allocator_), std::move(value), allocator_);
  return *this;
}

JsonObject& JsonObject::string(std::string_view key, std::string_view text) {
  return set(key, jsonString(text, allocator_));
}

JsonObject& JsonObject::integer(std::string_view key, int64_t number) {
  return set(key, rapidjson::Value(number));
}

JsonObject& JsonObject::boolean(std::string_view key, bool flag) { return set(key, rapidjson::Value(flag)); }

JsonObject& JsonObject::stringIfSet(std::string_view key, std::string_view text) {
  return text.empty() ? *this : string(key, text);
}

JsonObject& JsonObject::integerIfSet(std::string_view key, int64_t number) {
  return number == 0 ? *this : integer(key, number);
}

JsonObject& JsonObject::integerIfSet(std::string_view key, const std::optional<int32_t>& number) {
  return number ? integer(key, *number) : *this;
}

JsonObject& JsonObject::booleanIfTrue(std::string_view key, bool flag) { return flag ? boolean(key, true) : *this; }

JsonObject& JsonObject::booleanIfSet(std::string_view key, const std::optional<bool>& flag) {
  return flag ? boolean(key, *flag) : *this;
}

JsonObject& JsonObject::timeIfSet(std::string_view key, const std::optional<TimeMs>& time) {
  return time ? string(key, formatRfc3339(*time)) : *this;
}

JsonObject& JsonObject::setIfSet(std::string_view key, rapidjson::Value value) {
  bool empty = value.IsNull() || (value.IsObject() && value.ObjectEmpty()) || (value.IsArray() && value.Empty());
  return empty ? *this : set(key, std::move(value));
}

JsonObject& JsonObject::merge(const UnknownFields& unknown) {
  for (const auto& [key, text] : unknown) {
    rapidjson::Value name = jsonString(key, allocator_);
    const rapidjson::Value& existing = object_;  // const iterators: no reversed-operator ambiguity
    if (existing.FindMember(name) != existing.MemberEnd()) continue;
    object_.AddMember(std::move(name), jsonFromText(text, allocator_), allocator_);
  }
  return *this;
}

}  // namespace jobhost
