// Formatting of Kubernetes field errors (field.Error.ErrorBody) and field paths.
// Paths use Kubernetes' dotted form with [index] and [key] suffixes.
#include "host/admission/field_errors.h"

#include "host/admission/go_text.h"

namespace jobhost::k8s {
namespace {

FieldErr make(std::string field, std::string body, std::string_view detail) {
  if (!detail.empty()) body.append(": ").append(detail);
  return {std::move(field), std::move(body)};
}

}  // namespace

std::string value(std::string_view s) { return gotext::quote(s); }
std::string value(int64_t n) { return std::to_string(n); }

FieldErr required(std::string field, std::string_view detail) { return make(std::move(field), "Required value", detail); }

FieldErr invalid(std::string field, std::string_view valueText, std::string_view detail) {
  return make(std::move(field), "Invalid value: " + std::string(valueText), detail);
}

FieldErr duplicate(std::string field, std::string_view valueText) {
  return make(std::move(field), "Duplicate value: " + std::string(valueText), {});
}

FieldErr notFound(std::string field, std::string_view valueText) {
  return make(std::move(field), "Not found: " + std::string(valueText), {});
}

FieldErr forbidden(std::string field, std::string_view detail) { return make(std::move(field), "Forbidden", detail); }

FieldErr notSupported(std::string field, std::string_view valueText, std::initializer_list<std::string_view> supported) {
  std::string detail = "supported values: ";
  bool first = true;
  for (auto s : supported) {
    if (!first) detail += ", ";
    first = false;
    detail += gotext::quote(s);
  }
  return make(std::move(field), "Unsupported value: " + std::string(valueText), detail);
}

void invalidEach(FieldErrs& out, const std::string& field, std::string_view valueText,
                 const std::vector<std::string>& messages) {
  for (const auto& m : messages) out.push_back(invalid(field, valueText, m));
}

std::string child(std::string_view parent, std::string_view name) {
  std::string out(parent);
  if (!out.empty()) out.push_back('.');
  out.append(name);
  return out;
}

std::string index(std::string_view parent, size_t i) {
  return std::string(parent) + "[" + std::to_string(i) + "]";
}

std::string key(std::string_view parent, std::string_view k) {
  return std::string(parent) + "[" + std::string(k) + "]";
}

}  // namespace jobhost::k8s
