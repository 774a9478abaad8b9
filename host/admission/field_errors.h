// Kubernetes field errors (k8s.io/apimachinery/pkg/util/validation/field): the "<path>: <body>"
// texts Kubernetes validation produces, built the way field.Required/Invalid/... format them.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace jobhost::k8s {

/// One field.Error: `field` is the dotted path ("template.spec.containers[0].image"), `body` is
/// ErrorBody() ("Required value", "Invalid value: \"x\": detail", ...).
struct FieldErr {
  std::string field;
  std::string body;
  /// field.Error.Error(): "<field>: <body>".
  std::string text() const { return field + ": " + body; }
};
using FieldErrs = std::vector<FieldErr>;

/// How field.Error prints a bad value: strings (and named string types) quoted with strconv.Quote,
/// integers as decimals.
std::string value(std::string_view s);
std::string value(int64_t n);

FieldErr required(std::string field, std::string_view detail = {});
FieldErr invalid(std::string field, std::string_view valueText, std::string_view detail);
FieldErr duplicate(std::string field, std::string_view valueText);
FieldErr notFound(std::string field, std::string_view valueText);
FieldErr forbidden(std::string field, std::string_view detail);
/// "Unsupported value: <v>: supported values: \"a\", \"b\"".
FieldErr notSupported(std::string field, std::string_view valueText, std::initializer_list<std::string_view> supported);

/// Appends one Invalid error per message, as Kubernetes does for name-format checks.
void invalidEach(FieldErrs& out, const std::string& field, std::string_view valueText,
                 const std::vector<std::string>& messages);

/// Path helpers: child("a", "b") == "a.b", index("a", 2) == "a[2]", key("a", "k") == "a[k]".
std::string child(std::string_view parent, std::string_view name);
std::string index(std::string_view parent, size_t i);
std::string key(std::string_view parent, std::string_view k);

}  // namespace jobhost::k8s
