// Quantities kept as JSON in unknown fields: strings and numbers through Quantity::parse, and
// resource lists of them.
#include "host/workload/json_quantity.h"

#include <string>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

namespace jobhost {

std::optional<Quantity> jsonQuantity(const rapidjson::Value& v) {
  if (v.IsString()) return Quantity::parse({v.GetString(), v.GetStringLength()});
  if (!v.IsNumber()) return std::nullopt;
  rapidjson::StringBuffer text;
  rapidjson::Writer<rapidjson::StringBuffer> writer(text);
  v.Accept(writer);
  return Quantity::parse({text.GetString(), text.GetSize()});
}

ResourceList jsonResourceList(const rapidjson::Value& list) {
  ResourceList out;
  if (!list.IsObject()) return out;
  for (const auto& m : list.GetObject())
    if (auto q = jsonQuantity(m.value)) out.emplace(std::string(m.name.GetString(), m.name.GetStringLength()), *q);
  return out;
}

std::optional<rapidjson::Document> unknownFieldJson(const UnknownFields& unknown, std::string_view field) {
  for (const auto& [key, json] : unknown) {
    if (key != field) continue;
    std::optional<rapidjson::Document> doc(std::in_place);
    doc->Parse(json.c_str(), json.size());
    if (doc->HasParseError()) doc->SetNull();
    return doc;
  }
  return std::nullopt;
}

}  // namespace jobhost
