// The API server's wording of CRD schema type errors (k8s.io/kube-openapi validate, InvalidTypeCode,
// reported as field.TypeInvalid with the value's type as the invalid value).
#include "host/spec/schema_finding.h"

namespace jobhost {

std::string_view openApiTypeName(const rapidjson::Value& v) {
  if (v.IsObject()) return "object";
  if (v.IsArray()) return "array";
  if (v.IsString()) return "string";
  if (v.IsBool()) return "boolean";
  if (v.IsNull()) return "null";
  return v.IsInt64() || v.IsUint64() ? "integer" : "number";
}

std::string schemaTypeError(const std::string& field, const rapidjson::Value& v, std::string_view types) {
  const std::string got = "\"" + std::string(openApiTypeName(v)) + "\"";
  return "Invalid value: " + got + ": " + field + " in body must be of type " + std::string(types) + ": " + got;
}

}  // namespace jobhost
