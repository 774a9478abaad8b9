// YAML scalar typing: what a plain (unquoted) YAML scalar stands for as a JSON value, and whether
// a string must be quoted so that kubectl (YAML 1.1) and YAML 1.2 readers both read it back as text.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include <rapidjson/document.h>

namespace jobhost {

/// The JSON value of a plain scalar as kubectl reads it (sigs.k8s.io/yaml, which types scalars
/// with go-yaml v2, YAML 1.1): null (null, Null, NULL, ~, empty); booleans (true/True/TRUE,
/// yes/Yes/YES, on/On/ON, y/Y and false/False/FALSE, no/No/NO, off/Off/OFF, n/N, so `value: yes`
/// is JSON true); from a leading digit or sign, numbers once underscores are dropped (1_000 is
/// 1000): integers as Go's ParseInt base 0 (0x hex, 0o and leading-zero octal, 0b binary), floats;
/// a leading-dot float (.5); anything else (timestamps included) is a string. Decimal integers
/// beyond 64 bits become floats; oversized hex/octal and numbers beyond double's range (1e999)
/// stay strings, numbers too small for a double (1e-999) are 0 (kubectl does the same).
/// Returns false for .inf and .nan, which JSON cannot hold.
bool plainScalarToJson(std::string_view text, rapidjson::Value& out,
                       rapidjson::Document::AllocatorType& allocator);

/// The name kubectl gives a plain mapping key (sigs.k8s.io/yaml turns go-yaml v2's typed keys into
/// text): booleans "true"/"false" (`yes:` is "true"), integers in decimal (`0x1F:` is "31",
/// `1_000:` is "1000"), floats as Go's FormatFloat(v, 'g', -1, 32) (`1.50:` is "1.5", `1e6:` is
/// "1e+06"), infinities and NaN ".inf", "-.inf", ".nan"; any other text unchanged. Nullopt for
/// the keys kubectl refuses: null, and integers beyond int64.
std::optional<std::string> plainKeyName(std::string_view text);

/// True when `text` written as a plain scalar would not read back as the same string: empty text,
/// YAML 1.1/1.2 null/bool/number/timestamp look-alikes (yes, on, 1_000, 1.5, 2026-01-02), leading
/// indicators or spaces, ": " or " #" inside, control characters and Unicode line separators.
bool needsQuotes(std::string_view text);

}  // namespace jobhost
