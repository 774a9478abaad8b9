// The character check go-yaml (kubectl's YAML reader) makes before parsing: UTF-8 that decodes,
// and only printable characters. yaml-cpp takes any bytes, so jobhost checks first.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace jobhost {

struct TextProblem {
  size_t offset = 0;    // byte offset of the offending character
  std::string message;  // go-yaml's words, e.g. "invalid leading UTF-8 octet"
};

/// The first character of `text` go-yaml refuses, or nullopt. A UTF-16 stream (with its byte order
/// mark) is left to the parser, as go-yaml reads it too; a UTF-8 byte order mark may open the text.
std::optional<TextProblem> firstUnreadableCharacter(std::string_view text);

}  // namespace jobhost
