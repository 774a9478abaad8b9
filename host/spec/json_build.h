// JsonObject: builds a Kubernetes-style JSON object member by member (omitempty rules spelled out
// per call) and merges unknown fields back; plus small value helpers. Internal to host/spec.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <rapidjson/document.h>

#include "jobhost/meta.h"
#include "jobhost/quantity.h"

namespace jobhost {

using JsonAllocator = rapidjson::Document::AllocatorType;

rapidjson::Value jsonString(std::string_view text, JsonAllocator& allocator);
rapidjson::Value jsonStrings(const std::vector<std::string>& items, JsonAllocator& allocator);
rapidjson::Value jsonStringMap(const std::map<std::string, std::string>& map, JsonAllocator& allocator);
/// {"cpu": "500m", "memory": "2Gi"}: quantities in canonical Kubernetes form.
rapidjson::Value jsonResources(const ResourceList& resources, JsonAllocator& allocator);
/// Parses compact JSON text (an unknown field's value); text that is not JSON becomes a string.
rapidjson::Value jsonFromText(std::string_view text, JsonAllocator& allocator);

template <class T, class EncodeItem>
rapidjson::Value jsonArray(const std::vector<T>& items, JsonAllocator& allocator, EncodeItem encodeItem) {
  rapidjson::Value out(rapidjson::kArrayType);
  for (const auto& item : items) out.PushBack(encodeItem(item, allocator), allocator);
  return out;
}

class JsonObject {
 public:
  explicit JsonObject(JsonAllocator& allocator) : allocator_(allocator) {}

  JsonObject& set(std::string_view key, rapidjson::Value value);
  JsonObject& string(std::string_view key, std::string_view text);
  JsonObject& integer(std::string_view key, int64_t number);
  JsonObject& boolean(std::string_view key, bool flag);

  // omitempty: nothing is added for "", 0, false, nullopt, null, {} or [].
  JsonObject& stringIfSet(std::string_view key, std::string_view text);
  JsonObject& integerIfSet(std::string_view key, int64_t number);
  JsonObject& integerIfSet(std::string_view key, const std::optional<int32_t>& number);
  JsonObject& booleanIfTrue(std::string_view key, bool flag);
  JsonObject& booleanIfSet(std::string_view key, const std::optional<bool>& flag);
  JsonObject& timeIfSet(std::string_view key, const std::optional<TimeMs>& time);
  JsonObject& setIfSet(std::string_view key, rapidjson::Value value);

  /// Appends the unknown fields, in order, skipping keys the object already has (modelled fields
  /// win over an unknown entry of the same name).
  JsonObject& merge(const UnknownFields& unknown);

  rapidjson::Value take() { return std::move(object_); }

 private:
  JsonAllocator& allocator_;
  rapidjson::Value object_{rapidjson::kObjectType};
};

}  // namespace jobhost
