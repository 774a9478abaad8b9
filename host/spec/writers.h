// Text output for encoded objects: JSON (compact or indented) and block-style YAML that kubectl
// and YAML 1.2 parsers read back to the same tree.
#pragma once

#include <string>

#include <rapidjson/document.h>

namespace jobhost {

/// JSON text; `pretty` indents by two spaces. Members keep their insertion order.
std::string toJson(const rapidjson::Value& value, bool pretty);

/// Block-style YAML in kubectl's layout (lists not indented under their key), ending in a
/// newline. Members keep their insertion order. Strings that would read back as something else
/// (true, "1", "", null, yes, "a: b", leading indicators, ...) are double-quoted; multi-line
/// strings become literal block scalars (|, |- or |+) when that is exact, else double-quoted.
std::string toYaml(const rapidjson::Value& value);

}  // namespace jobhost
