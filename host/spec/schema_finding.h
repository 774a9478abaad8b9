// Schema findings: what the API server refuses in a Job's spec before any webhook runs, found while
// decoding (a value of the wrong JSON type, a key a fully modelled struct does not declare).
#pragma once

#include <string>
#include <string_view>

#include <rapidjson/document.h>

namespace jobhost {

struct SchemaFinding {
  /// True: a key the schema does not declare (strict field validation words it); false: a value of
  /// the wrong type, a cause of the 422 Invalid answer (the CRD's OpenAPI type check).
  bool undeclared = false;
  std::string field;
  std::string message;  // the type error (schemaTypeError); empty for an undeclared key
};

/// The OpenAPI type of a JSON value as the API server names it when kubectl sent it: object, array,
/// string, boolean, null, integer (whole numbers, 2.0 included) or number.
std::string_view openApiTypeName(const rapidjson::Value& v);

/// The API server's message for a value of the wrong type at `field`, `types` being the allowed
/// ones ("integer", "integer,string"): Invalid value: "string": <field> in body must be of type
/// integer: "string".
std::string schemaTypeError(const std::string& field, const rapidjson::Value& v, std::string_view types);

}  // namespace jobhost
