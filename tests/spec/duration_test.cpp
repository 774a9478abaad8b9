// Go durations both ways, table-driven; the parse cases are Go's own time.ParseDuration tests
// (src/time/time_test.go), expressed in milliseconds.
#include <gtest/gtest.h>

#include "host/spec/duration.h"
#include "host/spec/timestamp.h"

namespace jobhost {
namespace {

struct ParseCase {
  const char* text;
  int64_t ms;
};

constexpr int64_t kSecond = 1000, kMinute = 60 * kSecond, kHour = 60 * kMinute;

TEST(GoDuration, ParsesGoExamples) {
  const ParseCase cases[] = {
      {"0", 0},
      {"5s", 5 * kSecond},
      {"30s", 30 * kSecond},
      {"1478s", 1478 * kSecond},
      {"-5s", -5 * kSecond},
      {"+5s", 5 * kSecond},
      {"-0", 0},
      {"+0", 0},
      {"5.0s", 5 * kSecond},
      {"5.6s", 5600},
      {"5.s", 5 * kSecond},
      {".5s", 500},
      {"1.0s", 1000},
      {"1.00s", 1000},
      {"1.004s", 1004},
      {"1.0040s", 1004},
      {"100.00100s", 100001},
      {"10ns", 1},  // non-zero under 1 ms: 1 ms, so a set timeout still delays
      {"11us", 1},
      {"12µs", 1},
      {"12μs", 1},
      {"-500us", -1},
      {"0ns", 0},
      {"0.0s", 0},
      {"13ms", 13},
      {"14s", 14 * kSecond},
      {"15m", 15 * kMinute},
      {"16h", 16 * kHour},
      {"3h30m", 3 * kHour + 30 * kMinute},
      {"10.5s4m", 4 * kMinute + 10500},
      {"-2m3.4s", -(2 * kMinute + 3400)},
      {"1h2m3s4ms5us6ns", kHour + 2 * kMinute + 3 * kSecond + 4},
      {"39h9m14.425s", 39 * kHour + 9 * kMinute + 14425},
      {"52763797000ns", 52763},
      {"0.3333333333333333333h", 20 * kMinute},
      {"9007199254740993ns", 9007199254},
      {"9223372036854775807ns", 9223372036854},
      {"9223372036854775.807us", 9223372036854},
      {"9223372036854ms775us807ns", 9223372036854},
      {"-9223372036854775808ns", -9223372036854},
      {"-9223372036854775.808us", -9223372036854},
      {"-9223372036854ms775us808ns", -9223372036854},
      {"-2562047h47m16.854775808s", -9223372036854},
      {"0.100000000000000000000h", 6 * kMinute},
      {"0.830103483285477580700h", 49 * kMinute + 48 * kSecond + 372},
      // Volcano job examples
      {"10m", 10 * kMinute},
      {"1h30m0s", 90 * kMinute},
      {"500ms", 500},
      {"300ms", 300},
      {"-1.5h", -90 * kMinute},
      {"2h45m", 165 * kMinute},
  };
  for (const auto& c : cases) {
    auto parsed = parseGoDuration(c.text);
    ASSERT_TRUE(parsed.has_value()) << c.text;
    EXPECT_EQ(parsed->ms, c.ms) << c.text;
  }
}

TEST(GoDuration, RejectsWhatGoRejects) {
  for (const char* bad : {"", "3", "-", "s", ".", "-.", ".s", "+.s", "1d", "\x85\x85", "\xff" "ff",
                          "hello \xff" "ff world", "9223372036854775808ns", "9223372036854775.808us",
                          "9223372036854ms775us808ns", "-9223372036854775809ns", "10 m", "1h 30m", "1.5.5s"})
    EXPECT_FALSE(parseGoDuration(bad).has_value()) << bad;
}

TEST(GoDuration, FormatsLikeGoDurationString) {
  const ParseCase cases[] = {
      {"0s", 0},
      {"1ms", 1},
      {"500ms", 500},
      {"999ms", 999},
      {"1s", kSecond},
      {"1.5s", 1500},
      {"1.001s", 1001},
      {"1.01s", 1010},
      {"59.999s", 59999},
      {"1m0s", kMinute},
      {"1m1s", kMinute + kSecond},
      {"10m0s", 10 * kMinute},
      {"1h0m0s", kHour},
      {"1h30m0s", 90 * kMinute},
      {"2h45m30.5s", 2 * kHour + 45 * kMinute + 30500},
      {"100h0m0.001s", 100 * kHour + 1},
      {"-500ms", -500},
      {"-1m30s", -90 * kSecond},
      {"2562047h47m16.854s", 9223372036854},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(formatGoDuration(Duration{c.ms}), c.text) << c.ms;
    EXPECT_EQ(parseGoDuration(c.text), Duration{c.ms}) << c.text;
  }
}

TEST(Rfc3339, ParsesAndFormats) {
  EXPECT_EQ(parseRfc3339("1970-01-01T00:00:00Z"), 0);
  EXPECT_EQ(parseRfc3339("2026-01-02T03:04:05Z"), 1767323045000);
  EXPECT_EQ(parseRfc3339("2026-01-02T03:04:05.678Z"), 1767323045678);
  EXPECT_EQ(parseRfc3339("2026-01-02T03:04:05.6789123Z"), 1767323045678);
  EXPECT_EQ(parseRfc3339("2026-01-02T05:04:05+02:00"), 1767323045000);
  EXPECT_EQ(parseRfc3339("2026-01-01T22:04:05-05:00"), 1767323045000);
  EXPECT_EQ(parseRfc3339("2024-02-29T00:00:00Z"), 1709164800000);
  for (const char* bad : {"", "2026-01-02", "2026-01-02 03:04:05Z", "2026-02-30T00:00:00Z", "2026-01-02T24:00:00Z",
                          "2026-01-02T03:04:05", "2026-01-02T03:04:05.Z", "2026-01-02T03:04:05+0200"})
    EXPECT_FALSE(parseRfc3339(bad).has_value()) << bad;

  EXPECT_EQ(formatRfc3339(0), "1970-01-01T00:00:00Z");
  EXPECT_EQ(formatRfc3339(1767323045999), "2026-01-02T03:04:05Z");
  EXPECT_EQ(formatRfc3339(-1), "1969-12-31T23:59:59Z");
  EXPECT_EQ(formatRfc3339(1709164800000), "2024-02-29T00:00:00Z");
}

}  // namespace
}  // namespace jobhost
