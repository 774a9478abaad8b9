// UUID generation: version 4 from std::random_device, version 5 from OpenSSL's SHA-1, both
// formatted as lower-case 8-4-4-4-12 hex.
#include "host/spec/uid.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <random>

#include <openssl/evp.h>

namespace jobhost {
namespace {

using UuidBytes = std::array<uint8_t, 16>;

// uuid5(NAMESPACE_DNS, "jobhost.dev")
constexpr UuidBytes kJobhostUuidNamespace = {0xe9, 0xf1, 0xd1, 0xf3, 0xa4, 0x83, 0x5e, 0xe7,
                                             0xad, 0x04, 0x69, 0x85, 0x8e, 0x83, 0x9a, 0x92};

std::string format(UuidBytes bytes, int version) {
  bytes[6] = static_cast<uint8_t>((bytes[6] & 0x0f) | (version << 4));
  bytes[8] = static_cast<uint8_t>((bytes[8] & 0x3f) | 0x80);  // RFC 4122 variant
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < bytes.size(); ++i) {
    if (i == 4 || i == 6 || i == 8 || i == 10) out += '-';
    out += kHex[bytes[i] >> 4];
    out += kHex[bytes[i] & 15];
  }
  return out;
}

}  // namespace

std::string newUid() {
  thread_local std::random_device device;
  UuidBytes bytes;
  for (size_t i = 0; i < bytes.size(); i += 4) {
    uint32_t word = device();
    for (size_t k = 0; k < 4; ++k) bytes[i + k] = static_cast<uint8_t>(word >> (8 * k));
  }
  return format(bytes, 4);
}

std::string stableUid(std::string_view ns, std::string_view name) {
  std::string input(kJobhostUuidNamespace.begin(), kJobhostUuidNamespace.end());
  input.append(ns).append("/").append(name);
  unsigned char digest[EVP_MAX_MD_SIZE] = {};
  unsigned int length = 0;
  EVP_Digest(input.data(), input.size(), digest, &length, EVP_sha1(), nullptr);
  UuidBytes bytes;
  std::copy(digest, digest + bytes.size(), bytes.begin());
  return format(bytes, 5);
}

}  // namespace jobhost
