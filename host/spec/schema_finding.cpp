// The API server's wording of CRD schema type errors (k8s.io/kube-openapi validate, InvalidTypeCode,
// reported as field.TypeInvalid with the value's type as the invalid value).
#include "host/spec/schema_finding.h"

#include <cmath>

namespace jobhost {

std::string_view openApiTypeName(const rapidjson::Value& v) {
  if (v.IsObject()) return "object";
  if (v.IsArray()) return "array";
  if (v.IsString()) return "string";
  if (v.IsBool()) return "boolean";
  if (v.IsNull()) return "null";
  if (v.IsInt64() || v.IsUint64()) return "integer";
  // kubectl re-encodes a file's numbers with Go's encoding/json, which writes 2.0 as 2 (and 1e3 as
  // 1000), so the API server sees an integer wherever the value is whole and fits 64 bits.
  constexpr double kInt64Bound = 0x1p63;
  const double d = v.GetDouble();
  return std::trunc(d) == d && std::fabs(d) < kInt64Bound ? "integer" : "number";
}

std::string schemaTypeError(const std::string& field, const rapidjson::Value& v, std::string_view types) {
  const std::string got = "\"" + std::string(openApiTypeName(v)) + "\"";
  return "Invalid value: " + got + ": " + field + " in body must be of type " + std::string(types) + ": " + got;
}

}  // namespace jobhost
