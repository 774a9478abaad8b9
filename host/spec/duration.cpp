// Go duration parsing and formatting, following the algorithms of Go's time package
// (ParseDuration, leadingInt, leadingFraction, Duration.String) at nanosecond precision.
#include "host/spec/duration.h"

#include <cstdint>
#include <utility>

namespace jobhost {
namespace {

constexpr uint64_t kLimit = uint64_t{1} << 63;  // |int64 min|: the largest magnitude Go accepts
constexpr int64_t kNanosPerMilli = 1'000'000;

bool isDigit(char c) { return c >= '0' && c <= '9'; }

// Consumes [0-9]*; false on overflow past 1<<63.
bool leadingInt(std::string_view& s, uint64_t& value) {
  value = 0;
  size_t i = 0;
  for (; i < s.size() && isDigit(s[i]); ++i) {
    if (value > kLimit / 10) return false;
    value = value * 10 + static_cast<uint64_t>(s[i] - '0');
    if (value > kLimit) return false;
  }
  s.remove_prefix(i);
  return true;
}

// Consumes [0-9]* after a '.', keeping the digits that fit; scale is 10^(digits kept).
void leadingFraction(std::string_view& s, uint64_t& value, double& scale) {
  value = 0;
  scale = 1;
  bool overflow = false;
  size_t i = 0;
  for (; i < s.size() && isDigit(s[i]); ++i) {
    if (overflow) continue;
    if (value > (kLimit - 1) / 10) {
      overflow = true;
      continue;
    }
    uint64_t next = value * 10 + static_cast<uint64_t>(s[i] - '0');
    if (next > kLimit) {
      overflow = true;
      continue;
    }
    value = next;
    scale *= 10;
  }
  s.remove_prefix(i);
}

std::optional<uint64_t> unitNanos(std::string_view unit) {
  static constexpr std::pair<std::string_view, uint64_t> kUnits[] = {
      {"ns", 1},
      {"us", 1'000},
      {"\xC2\xB5s", 1'000},  // U+00B5 micro sign
      {"\xCE\xBCs", 1'000},  // U+03BC Greek small letter mu
      {"ms", 1'000'000},
      {"s", 1'000'000'000},
      {"m", 60'000'000'000},
      {"h", 3'600'000'000'000},
  };
  for (const auto& [name, nanos] : kUnits)
    if (unit == name) return nanos;
  return std::nullopt;
}

// One <number><unit> part; adds its nanoseconds to total.
bool parsePart(std::string_view& s, uint64_t& total) {
  if (!(s[0] == '.' || isDigit(s[0]))) return false;
  uint64_t whole = 0, fraction = 0;
  double scale = 1;
  size_t before = s.size();
  if (!leadingInt(s, whole)) return false;
  bool hasWhole = before != s.size();
  bool hasFraction = false;
  if (!s.empty() && s[0] == '.') {
    s.remove_prefix(1);
    size_t afterDot = s.size();
    leadingFraction(s, fraction, scale);
    hasFraction = afterDot != s.size();
  }
  if (!hasWhole && !hasFraction) return false;
  size_t unitLength = 0;
  while (unitLength < s.size() && s[unitLength] != '.' && !isDigit(s[unitLength])) ++unitLength;
  auto unit = unitNanos(s.substr(0, unitLength));
  if (!unit) return false;
  s.remove_prefix(unitLength);
  if (whole > kLimit / *unit) return false;
  uint64_t nanos = whole * *unit;
  if (fraction > 0) {
    nanos += static_cast<uint64_t>(static_cast<double>(fraction) * (static_cast<double>(*unit) / scale));
    if (nanos > kLimit) return false;
  }
  total += nanos;
  return total <= kLimit;
}

}  // namespace

std::optional<Duration> parseGoDuration(std::string_view text) {
  std::string_view s = text;
  bool negative = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s == "0") return Duration{0};
  if (s.empty()) return std::nullopt;
  uint64_t total = 0;
  while (!s.empty())
    if (!parsePart(s, total)) return std::nullopt;
  if (!negative && total > kLimit - 1) return std::nullopt;
  // total <= 1<<63 here; divide first so the negation cannot overflow. A non-zero duration under
  // 1 ms becomes 1 ms, not 0: Volcano delays an action whenever its timeout is non-zero.
  auto millis = static_cast<int64_t>(total / kNanosPerMilli);
  if (millis == 0 && total > 0) millis = 1;
  return Duration{negative ? -millis : millis};
}

std::string formatGoDuration(Duration duration) {
  if (duration.ms == 0) return "0s";
  const bool negative = duration.ms < 0;
  const uint64_t magnitude = negative ? uint64_t{0} - static_cast<uint64_t>(duration.ms)
                                      : static_cast<uint64_t>(duration.ms);
  const std::string sign = negative ? "-" : "";
  if (magnitude < 1000) return sign + std::to_string(magnitude) + "ms";

  std::string seconds = std::to_string(magnitude / 1000 % 60);
  if (uint64_t millis = magnitude % 1000; millis != 0) {
    std::string fraction = std::to_string(millis + 1000).substr(1);  // three digits
    fraction.erase(fraction.find_last_not_of('0') + 1);
    seconds += "." + fraction;
  }
  std::string out = seconds + "s";
  uint64_t minutes = magnitude / 60'000;
  if (minutes > 0) {
    out = std::to_string(minutes % 60) + "m" + out;
    if (uint64_t hours = minutes / 60; hours > 0) out = std::to_string(hours) + "h" + out;
  }
  return sign + out;
}

}  // namespace jobhost
