// Base64 (RFC 4648, standard alphabet, padded) as Kubernetes uses it for Secret data and
// ConfigMap binaryData: encoding for the encoders, decoding with Go's StdEncoding rules.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace jobhost {

std::string base64Encode(std::string_view bytes);

/// The bytes `text` encodes, or nullopt with *badByte set to the offset of the first byte that is
/// not valid there (Go: "illegal base64 data at input byte N"). Line breaks are skipped, as Go does.
std::optional<std::string> base64Decode(std::string_view text, size_t* badByte);

}  // namespace jobhost
