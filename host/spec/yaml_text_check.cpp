// go-yaml's reader checks (yaml_parser_update_buffer): each UTF-8 sequence must decode to a scalar
// value in its shortest form, and only tab, line breaks and printable characters may appear.
#include "host/spec/yaml_text_check.h"

#include <cstdint>

namespace jobhost {
namespace {

bool isPrintable(uint32_t c) {
  return c == 0x09 || c == 0x0A || c == 0x0D || (c >= 0x20 && c <= 0x7E) || c == 0x85 || (c >= 0xA0 && c <= 0xD7FF) ||
         (c >= 0xE000 && c <= 0xFFFD && c != 0xFEFF) || (c >= 0x10000 && c <= 0x10FFFF);
}

}  // namespace

std::optional<TextProblem> firstUnreadableCharacter(std::string_view text) {
  auto byte = [&](size_t i) { return static_cast<unsigned char>(text[i]); };
  if (text.size() >= 2 && ((byte(0) == 0xFF && byte(1) == 0xFE) || (byte(0) == 0xFE && byte(1) == 0xFF)))
    return std::nullopt;  // UTF-16
  size_t i = text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
  while (i < text.size()) {
    const unsigned char lead = byte(i);
    const size_t width = lead < 0x80 ? 1 : (lead & 0xE0) == 0xC0 ? 2 : (lead & 0xF0) == 0xE0 ? 3 : (lead & 0xF8) == 0xF0 ? 4 : 0;
    if (width == 0) return TextProblem{i, "invalid leading UTF-8 octet"};
    if (i + width > text.size()) return TextProblem{i, "incomplete UTF-8 octet sequence"};
    uint32_t c = width == 1 ? lead : width == 2 ? lead & 0x1F : width == 3 ? lead & 0x0F : lead & 0x07;
    for (size_t k = 1; k < width; ++k) {
      if ((byte(i + k) & 0xC0) != 0x80) return TextProblem{i, "invalid trailing UTF-8 octet"};
      c = (c << 6) | (byte(i + k) & 0x3F);
    }
    const bool shortest = width == 1 || (width == 2 && c >= 0x80) || (width == 3 && c >= 0x800) || (width == 4 && c >= 0x10000);
    if (!shortest) return TextProblem{i, "invalid length of a UTF-8 sequence"};
    if ((c >= 0xD800 && c <= 0xDFFF) || c > 0x10FFFF) return TextProblem{i, "invalid Unicode character"};
    if (!isPrintable(c)) return TextProblem{i, "control characters are not allowed"};
    i += width;
  }
  return std::nullopt;
}

}  // namespace jobhost
