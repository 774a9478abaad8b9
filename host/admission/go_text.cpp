// Go text formatting used to reproduce Volcano's admission strings byte for byte.
// Covers the ASCII/UTF-8 cases job names, events and messages can contain.
#include "host/admission/go_text.h"

#include <cstdint>

namespace jobhost::gotext {
namespace {

constexpr char kHex[] = "0123456789abcdef";

void appendHexByte(std::string& out, std::string_view prefix, unsigned v, int digits) {
  out.append(prefix);
  for (int shift = (digits - 1) * 4; shift >= 0; shift -= 4) out.push_back(kHex[(v >> shift) & 0xF]);
}

// Decodes one UTF-8 sequence at s[i]; returns its length, or 0 when invalid.
size_t decodeRune(std::string_view s, size_t i, uint32_t& rune) {
  const auto b = static_cast<unsigned char>(s[i]);
  size_t len = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : b >= 0xC0 ? 2 : 0;
  if (len == 0 || b > 0xF4 || i + len > s.size()) return 0;
  rune = b & (0x7F >> len);
  for (size_t k = 1; k < len; ++k) {
    const auto c = static_cast<unsigned char>(s[i + k]);
    if ((c & 0xC0) != 0x80) return 0;
    rune = (rune << 6) | (c & 0x3F);
  }
  static constexpr uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
  if (rune < kMin[len] || rune > 0x10FFFF || (rune >= 0xD800 && rune <= 0xDFFF)) return 0;
  return len;
}

}  // namespace

std::string quote(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  out.push_back('"');
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\a': out += "\\a"; break;
        case '\b': out += "\\b"; break;
        case '\f': out += "\\f"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        case '\v': out += "\\v"; break;
        default:
          if (c < 0x20 || c == 0x7F)
            appendHexByte(out, "\\x", c, 2);
          else
            out.push_back(static_cast<char>(c));
      }
      ++i;
      continue;
    }
    uint32_t rune = 0;
    const size_t len = decodeRune(s, i, rune);
    if (len == 0) {
      appendHexByte(out, "\\x", c, 2);
      ++i;
    } else if (rune < 0xA0 || rune == 0xAD || rune == 0x2028 || rune == 0x2029 || rune == 0xFEFF) {
      appendHexByte(out, "\\u", rune, 4);  // C1 controls and the invisible formatting runes
      i += len;
    } else {
      out.append(s.substr(i, len));
      i += len;
    }
  }
  out.push_back('"');
  return out;
}

std::string slice(const std::vector<std::string>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out.push_back(' ');
    out += items[i];
  }
  out.push_back(']');
  return out;
}

std::string_view trimSpace(std::string_view s) {
  // unicode.IsSpace: ASCII \t \n \v \f \r and space, U+0085, U+00A0, and Unicode's White_Space.
  auto isSpace = [](uint32_t r) {
    return r == ' ' || (r >= '\t' && r <= '\r') || r == 0x85 || r == 0xA0 || r == 0x1680 ||
           (r >= 0x2000 && r <= 0x200A) || r == 0x2028 || r == 0x2029 || r == 0x202F || r == 0x205F || r == 0x3000;
  };
  while (!s.empty()) {
    uint32_t rune = static_cast<unsigned char>(s.front());
    size_t len = rune < 0x80 ? 1 : decodeRune(s, 0, rune);
    if (len == 0 || !isSpace(rune)) break;  // invalid UTF-8 decodes to U+FFFD: not a space
    s.remove_prefix(len);
  }
  while (!s.empty()) {
    // The last rune: back up over at most three continuation bytes to its first byte.
    size_t start = s.size() - 1;
    while (start > 0 && s.size() - start < 4 && (static_cast<unsigned char>(s[start]) & 0xC0) == 0x80) --start;
    uint32_t rune = static_cast<unsigned char>(s[start]);
    size_t len = rune < 0x80 ? 1 : decodeRune(s, start, rune);
    if (len != s.size() - start) len = 0;  // not one valid rune ending here: Go sees U+FFFD
    if (len == 0 || !isSpace(rune)) break;
    s.remove_suffix(len);
  }
  return s;
}

std::string jsonString(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  out.push_back('"');
  for (size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '<': case '>': case '&': appendHexByte(out, "\\u", c, 4); break;
      default:
        if (c < 0x20) {
          appendHexByte(out, "\\u", c, 4);
        } else if (c == 0xE2 && i + 2 < s.size() && s[i + 1] == '\x80' && (s[i + 2] == '\xA8' || s[i + 2] == '\xA9')) {
          appendHexByte(out, "\\u", s[i + 2] == '\xA8' ? 0x2028 : 0x2029, 4);
          i += 2;
        } else {
          out.push_back(static_cast<char>(c));
        }
    }
  }
  out.push_back('"');
  return out;
}

std::string multierror(const std::vector<std::string>& errors) {
  if (errors.empty()) return {};
  std::string out = errors.size() == 1 ? "1 error occurred:" : std::to_string(errors.size()) + " errors occurred:";
  for (const auto& e : errors) out.append("\n\t* ").append(e);
  out += "\n\n";
  return out;
}

}  // namespace jobhost::gotext
