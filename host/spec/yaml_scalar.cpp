// YAML scalar typing for the reader (kubectl's: sigs.k8s.io/yaml on go-yaml v2, YAML 1.1 booleans
// and numbers) and the quoting decision for the writer (safe for both YAML 1.1 and YAML 1.2 readers).
#include "host/spec/yaml_scalar.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>

namespace jobhost {
namespace {

struct PlainScalar {
  enum class Kind { String, Null, Bool, Int, Uint, Float, NonFinite } kind = Kind::String;
  bool boolean = false;
  int64_t integer = 0;
  uint64_t unsignedInteger = 0;
  double real = 0;
};

bool isDigitOfBase(char c, int base) {
  if (base == 16) return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  return c >= '0' && c < static_cast<char>('0' + base);
}

bool allDigitsOfBase(std::string_view digits, int base) {
  if (digits.empty()) return false;
  for (char c : digits)
    if (!isDigitOfBase(c, base)) return false;
  return true;
}

std::string_view withoutPlusSign(std::string_view text) {
  return !text.empty() && text[0] == '+' ? text.substr(1) : text;
}

// [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?
bool isFloatSyntax(std::string_view s) {
  size_t i = 0;
  auto digits = [&] {
    size_t start = i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    return i - start;
  };
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
  if (i < s.size() && s[i] == '.') {
    ++i;
    if (digits() == 0) return false;
  } else {
    if (digits() == 0) return false;
    if (i < s.size() && s[i] == '.') {
      ++i;
      digits();
    }
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (digits() == 0) return false;
  }
  return i == s.size();
}

bool isNonFiniteSyntax(std::string_view s) {
  std::string_view unsignedPart = !s.empty() && (s[0] == '+' || s[0] == '-') ? s.substr(1) : s;
  if (unsignedPart == ".inf" || unsignedPart == ".Inf" || unsignedPart == ".INF") return true;
  return s == ".nan" || s == ".NaN" || s == ".NAN";
}

// `number` (float syntax) is beyond double's range: true when too large, false when too small.
bool beyondDoubleMax(std::string_view number) {
  const size_t e = number.find_first_of("eE");
  const std::string_view mantissa = number.substr(0, e);
  int64_t exponent = 0;
  if (e != std::string_view::npos) {
    std::string_view text = withoutPlusSign(number.substr(e + 1));
    const bool negative = !text.empty() && text[0] == '-';
    if (negative) text.remove_prefix(1);
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), exponent);
    if (ec != std::errc()) exponent = int64_t{1} << 40;  // absurdly long: its sign decides
    if (negative) exponent = -exponent;
  }
  const size_t first = mantissa.find_first_of("123456789");
  if (first == std::string_view::npos) return false;
  const size_t dot = std::min(mantissa.find('.'), mantissa.size());
  // The decimal order of magnitude, up to one: what separates too large from too small.
  const int64_t order = dot > first ? static_cast<int64_t>(dot - first) : -static_cast<int64_t>(first - dot);
  return order + exponent > 0;
}

// As go-yaml v2 (strconv.ParseFloat): a number beyond double's range is text, one too small is 0.
PlainScalar resolveFloat(std::string_view text) {
  PlainScalar out;
  std::string_view number = withoutPlusSign(text);
  auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), out.real);
  if (ec == std::errc::result_out_of_range) {
    if (beyondDoubleMax(number)) return {};
    out.real = number[0] == '-' ? -0.0 : 0.0;
  }
  out.kind = PlainScalar::Kind::Float;
  return out;
}

// Integers as Go's strconv.ParseInt(s, 0, 64), then ParseUint: [-+]? then 0x<hex>, 0o<octal>,
// 0b<binary> (prefixes in either case), 0<octal> or <decimal>.
bool resolveInteger(std::string_view text, PlainScalar& out) {
  bool negative = false;
  std::string_view s = text;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  int base = 10;
  std::string_view digits = s;
  const char prefix = s.size() > 2 && s[0] == '0' ? static_cast<char>(s[1] | 0x20) : '\0';  // lower case
  if (prefix == 'x' || prefix == 'o' || prefix == 'b') {
    base = prefix == 'x' ? 16 : prefix == 'o' ? 8 : 2;
    digits = s.substr(2);
  } else if (s.size() > 1 && s[0] == '0' && allDigitsOfBase(s, 8)) {
    base = 8;
    digits = s.substr(1);
  }
  if (!allDigitsOfBase(digits, base)) return false;

  uint64_t magnitude = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), magnitude, base);
  constexpr uint64_t kMinMagnitude = uint64_t{1} << 63;
  bool fits = ec == std::errc() && (!negative || magnitude <= kMinMagnitude);
  if (!fits) {
    if (base == 10) out = resolveFloat(text);  // too big for 64 bits: a float, like kubectl
    return base == 10;                         // oversized hex/octal/binary: a string
  }
  if (negative) {
    out.kind = PlainScalar::Kind::Int;
    out.integer = magnitude == kMinMagnitude ? std::numeric_limits<int64_t>::min()
                                             : -static_cast<int64_t>(magnitude);
  } else if (magnitude <= static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) {
    out.kind = PlainScalar::Kind::Int;
    out.integer = static_cast<int64_t>(magnitude);
  } else {
    out.kind = PlainScalar::Kind::Uint;
    out.unsignedInteger = magnitude;
  }
  return true;
}

// go-yaml v2's booleans (YAML 1.1), which kubectl sends as JSON true and false.
std::optional<bool> yaml11Bool(std::string_view s) {
  static constexpr std::array<std::string_view, 11> kTrue = {"y",    "Y",    "yes", "Yes", "YES", "true",
                                                             "True", "TRUE", "on",  "On",  "ON"};
  static constexpr std::array<std::string_view, 11> kFalse = {"n",     "N",     "no",  "No",  "NO", "false",
                                                              "False", "FALSE", "off", "Off", "OFF"};
  if (std::find(kTrue.begin(), kTrue.end(), s) != kTrue.end()) return true;
  if (std::find(kFalse.begin(), kFalse.end(), s) != kFalse.end()) return false;
  return std::nullopt;
}

// A scalar that starts with a digit or a sign is a number when it is one without its underscores
// (go-yaml v2: 1_000 is 1000).
PlainScalar resolveNumber(std::string_view text) {
  std::string withoutUnderscores;
  if (text.find('_') != std::string_view::npos) {
    withoutUnderscores = text;
    std::erase(withoutUnderscores, '_');
    text = withoutUnderscores;
  }
  PlainScalar out;
  if (resolveInteger(text, out)) return out;  // an integer, or an oversized decimal as a float
  if (isFloatSyntax(text)) return resolveFloat(text);
  return {};
}

PlainScalar resolve(std::string_view text) {
  PlainScalar out;
  if (text.empty() || text == "~" || text == "null" || text == "Null" || text == "NULL") {
    out.kind = PlainScalar::Kind::Null;
  } else if (auto boolean = yaml11Bool(text)) {
    out.kind = PlainScalar::Kind::Bool;
    out.boolean = *boolean;
  } else if (isNonFiniteSyntax(text)) {
    out.kind = PlainScalar::Kind::NonFinite;
  } else if ((text[0] >= '0' && text[0] <= '9') || text[0] == '+' || text[0] == '-') {
    out = resolveNumber(text);
  } else if (text[0] == '.' && isFloatSyntax(text)) {
    out = resolveFloat(text);
  }
  return out;
}

// Go's strconv.FormatFloat(value, 'g', -1, 32): the shortest digits that read back as the same
// float32, as d.ddde±XX when the exponent is below -4 or at least 6, else in plain notation.
std::string goShortestFloat32(double value) {
  const float f = static_cast<float>(value);
  if (std::isinf(f)) return f > 0 ? ".inf" : "-.inf";
  if (f == 0) return std::signbit(f) ? "-0" : "0";
  std::array<char, 32> buf{};
  auto [end, ec] = std::to_chars(buf.data(), buf.data() + buf.size(), std::fabs(f), std::chars_format::scientific);
  const std::string_view scientific(buf.data(), static_cast<size_t>(end - buf.data()));  // "1.5e+06"
  const size_t e = scientific.find('e');
  std::string digits(scientific.substr(0, e));
  std::erase(digits, '.');
  std::string_view exponentText = scientific.substr(e + 1);
  if (exponentText.front() == '+') exponentText.remove_prefix(1);
  int exponent = 0;
  std::from_chars(exponentText.data(), exponentText.data() + exponentText.size(), exponent);

  std::string out = std::signbit(f) ? "-" : "";
  const auto count = static_cast<int>(digits.size());
  if (exponent < -4 || exponent >= 6) {
    out += digits.substr(0, 1);
    if (count > 1) out.append(".").append(digits, 1);
    const int magnitude = std::abs(exponent);
    out.append(exponent < 0 ? "e-" : "e+").append(magnitude < 10 ? "0" : "").append(std::to_string(magnitude));
  } else if (exponent < 0) {
    out.append("0.").append(static_cast<size_t>(-exponent - 1), '0').append(digits);
  } else if (count <= exponent + 1) {
    out.append(digits).append(static_cast<size_t>(exponent + 1 - count), '0');
  } else {
    out.append(digits, 0, static_cast<size_t>(exponent + 1)).append(".").append(digits, static_cast<size_t>(exponent + 1));
  }
  return out;
}

// Numbers with underscores, sexagesimal numbers (1:30) and timestamps (2026-01-02T03:04:05Z) are
// not strings to a YAML 1.1 reader: quote anything that starts like a number and stays number-ish.
bool looksNumericToYaml11(std::string_view s) {
  std::string_view body = !s.empty() && (s[0] == '+' || s[0] == '-') ? s.substr(1) : s;
  if (body.empty()) return false;
  bool startsNumeric = (body[0] >= '0' && body[0] <= '9') ||
                       (body[0] == '.' && body.size() > 1 && body[1] >= '0' && body[1] <= '9');
  if (!startsNumeric) return false;
  constexpr std::string_view kNumberish = "0123456789_.:-+eExXoObBabcdefABCDEF tTzZ";
  return body.find_first_not_of(kNumberish) == std::string_view::npos;
}

bool hasControlOrLineSeparator(std::string_view s) {
  for (char c : s) {
    auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) return true;
  }
  for (std::string_view special : {"\xC2\x85", "\xE2\x80\xA8", "\xE2\x80\xA9", "\xEF\xBB\xBF"})
    if (s.find(special) != std::string_view::npos) return true;
  return false;
}

bool startsWithIndicator(std::string_view s) {
  constexpr std::string_view kIndicators = "-?:,[]{}#&*!|>'\"%@`";
  if (kIndicators.find(s[0]) == std::string_view::npos) return false;
  // "-flag" is a fine plain scalar; "-", "- x" and "---" are not.
  bool dashFollowedByText = s[0] == '-' && s.size() > 1 && s[1] != ' ' && s.substr(0, 3) != "---";
  return !dashFollowedByText;
}

}  // namespace

bool plainScalarToJson(std::string_view text, rapidjson::Value& out,
                       rapidjson::Document::AllocatorType& allocator) {
  PlainScalar scalar = resolve(text);
  switch (scalar.kind) {
    case PlainScalar::Kind::String:
      out.SetString(text.data(), static_cast<rapidjson::SizeType>(text.size()), allocator);
      return true;
    case PlainScalar::Kind::Null: out.SetNull(); return true;
    case PlainScalar::Kind::Bool: out.SetBool(scalar.boolean); return true;
    case PlainScalar::Kind::Int: out.SetInt64(scalar.integer); return true;
    case PlainScalar::Kind::Uint: out.SetUint64(scalar.unsignedInteger); return true;
    case PlainScalar::Kind::Float: out.SetDouble(scalar.real); return true;
    case PlainScalar::Kind::NonFinite: return false;
  }
  return false;
}

std::optional<std::string> plainKeyName(std::string_view text) {
  PlainScalar scalar = resolve(text);
  switch (scalar.kind) {
    case PlainScalar::Kind::String: return std::string(text);
    case PlainScalar::Kind::Null: return std::nullopt;
    case PlainScalar::Kind::Bool: return scalar.boolean ? "true" : "false";
    case PlainScalar::Kind::Int: return std::to_string(scalar.integer);
    case PlainScalar::Kind::Uint: return std::nullopt;
    case PlainScalar::Kind::Float: return goShortestFloat32(scalar.real);
    case PlainScalar::Kind::NonFinite:
      if (text.find_first_of("aA") != std::string_view::npos) return ".nan";  // .nan, .NaN, .NAN
      return text.front() == '-' ? "-.inf" : ".inf";
  }
  return std::nullopt;
}

bool needsQuotes(std::string_view text) {
  if (text.empty()) return true;
  if (resolve(text).kind != PlainScalar::Kind::String) return true;
  if (looksNumericToYaml11(text)) return true;
  if (startsWithIndicator(text) || text.substr(0, 3) == "..." || text == "<<" || text == "=")
    return true;
  if (text.front() == ' ' || text.back() == ' ' || text.back() == ':') return true;
  if (text.find(": ") != std::string_view::npos || text.find(" #") != std::string_view::npos)
    return true;
  return hasControlOrLineSeparator(text);
}

}  // namespace jobhost
