// RFC 3339 parsing and formatting on std::chrono calendar types; dates are validated (no
// February 30th), seconds 0-59, offsets up to 23:59.
#include "host/spec/timestamp.h"

#include <chrono>
#include <cstdio>

namespace jobhost {
namespace {

// Reads exactly `width` digits at s[pos].
bool digits(std::string_view s, size_t pos, size_t width, int& out) {
  if (pos + width > s.size()) return false;
  out = 0;
  for (size_t i = pos; i < pos + width; ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    out = out * 10 + (s[i] - '0');
  }
  return true;
}

bool expect(std::string_view s, size_t pos, char c) { return pos < s.size() && s[pos] == c; }

// Parses "Z" or "+hh:mm"/"-hh:mm" at s[pos..] (the whole rest); offset in minutes east of UTC.
bool parseOffset(std::string_view s, size_t pos, int& minutes) {
  if (pos + 1 == s.size() && (s[pos] == 'Z' || s[pos] == 'z')) return (minutes = 0, true);
  int hours = 0, mins = 0;
  if (pos + 6 != s.size() || (s[pos] != '+' && s[pos] != '-')) return false;
  if (!digits(s, pos + 1, 2, hours) || !expect(s, pos + 3, ':') || !digits(s, pos + 4, 2, mins))
    return false;
  if (hours > 23 || mins > 59) return false;
  minutes = (s[pos] == '-' ? -1 : 1) * (hours * 60 + mins);
  return true;
}

}  // namespace

std::optional<TimeMs> parseRfc3339(std::string_view s) {
  using namespace std::chrono;
  int y = 0, mo = 0, d = 0, h = 0, mi = 0, sec = 0;
  if (!digits(s, 0, 4, y) || !expect(s, 4, '-') || !digits(s, 5, 2, mo) || !expect(s, 7, '-') ||
      !digits(s, 8, 2, d) || !(expect(s, 10, 'T') || expect(s, 10, 't')) || !digits(s, 11, 2, h) ||
      !expect(s, 13, ':') || !digits(s, 14, 2, mi) || !expect(s, 16, ':') || !digits(s, 17, 2, sec))
    return std::nullopt;
  year_month_day date{year{y}, month{static_cast<unsigned>(mo)}, day{static_cast<unsigned>(d)}};
  if (!date.ok() || h > 23 || mi > 59 || sec > 59) return std::nullopt;

  size_t pos = 19;
  int64_t millis = 0;
  if (expect(s, pos, '.')) {
    size_t start = ++pos;
    int64_t scale = 100;
    for (; pos < s.size() && s[pos] >= '0' && s[pos] <= '9'; ++pos, scale /= 10)
      millis += scale * (s[pos] - '0');
    if (pos == start) return std::nullopt;
  }
  int offsetMinutes = 0;
  if (!parseOffset(s, pos, offsetMinutes)) return std::nullopt;

  auto local = sys_days{date} + hours{h} + minutes{mi} + seconds{sec} + milliseconds{millis};
  return (local - minutes{offsetMinutes}).time_since_epoch().count();
}

std::string formatRfc3339(TimeMs time) {
  using namespace std::chrono;
  sys_seconds instant = floor<seconds>(sys_time<milliseconds>{milliseconds{time}});
  sys_days day = floor<days>(instant);
  year_month_day date{day};
  hh_mm_ss clock{instant - day};
  char buffer[80];
  std::snprintf(buffer, sizeof buffer, "%04d-%02u-%02uT%02d:%02d:%02dZ", static_cast<int>(date.year()),
                static_cast<unsigned>(date.month()), static_cast<unsigned>(date.day()),
                static_cast<int>(clock.hours().count()), static_cast<int>(clock.minutes().count()),
                static_cast<int>(clock.seconds().count()));
  return buffer;
}

}  // namespace jobhost
