// Base64 encoding (OpenSSL) and a strict decoder matching Go's base64.StdEncoding (see base64.h).
#include "host/spec/base64.h"

#include <openssl/evp.h>

namespace jobhost {
namespace {

int sextet(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

}  // namespace

std::string base64Encode(std::string_view bytes) {
  std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
  const int written = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                      reinterpret_cast<const unsigned char*>(bytes.data()), static_cast<int>(bytes.size()));
  out.resize(static_cast<size_t>(written));
  return out;
}

std::optional<std::string> base64Decode(std::string_view text, size_t* badByte) {
  std::string out;
  out.reserve(text.size() / 4 * 3);
  int quad[4];
  size_t filled = 0, padding = 0, groupAt = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n' || c == '\r') continue;
    if (filled == 0) groupAt = i;
    // After padding only padding may follow, and only to complete the group of four.
    if (c == '=' && filled >= 2) {
      ++padding;
      quad[filled++] = 0;
    } else if (padding > 0 || (quad[filled] = sextet(c)) < 0) {
      *badByte = i;
      return std::nullopt;
    } else {
      ++filled;
    }
    if (filled < 4) continue;
    const unsigned bits = (unsigned(quad[0]) << 18) | (unsigned(quad[1]) << 12) | (unsigned(quad[2]) << 6) | unsigned(quad[3]);
    out.push_back(static_cast<char>(bits >> 16));
    if (padding < 2) out.push_back(static_cast<char>((bits >> 8) & 0xFF));
    if (padding < 1) out.push_back(static_cast<char>(bits & 0xFF));
    filled = 0;
    if (padding > 0) {  // the end: anything but line breaks after it is an error
      for (size_t j = i + 1; j < text.size(); ++j)
        if (text[j] != '\n' && text[j] != '\r') {
          *badByte = j;
          return std::nullopt;
        }
      return out;
    }
  }
  if (filled != 0) {  // a group cut short: Go reports where that group began
    *badByte = groupAt;
    return std::nullopt;
  }
  return out;
}

}  // namespace jobhost
