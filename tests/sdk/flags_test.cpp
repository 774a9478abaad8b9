// FlagSet follows Go's flag package: the forms Volcano job args use, bool rules, stop rules,
// integer syntax, what a bad value leaves behind, and Go's exact error texts.
#include "jobhost/flags.h"

#include <gtest/gtest.h>

#include <limits>

namespace jobhost {
namespace {

struct Flags {
  std::string master = "master";
  int32_t port = 23456;
  int64_t timeout = 300;
  bool wait = false;
  bool inject = true;
  FlagSet set{"plugin pytorch"};
  Flags() {
    set.addString("master", &master);
    set.addInt("port", &port);
    set.addInt("wait-master-timeout", &timeout);
    set.addBool("wait-master-enabled", &wait);
    set.addBool("inject-hosts-env", &inject);
  }
};

TEST(Flags, AcceptsEveryGoForm) {
  Flags f;
  ASSERT_TRUE(f.set.parse({"--master=head", "-port=1234", "--wait-master-timeout", "60", "--wait-master-enabled",
                           "-inject-hosts-env=false"}));
  EXPECT_EQ(f.master, "head");
  EXPECT_EQ(f.port, 1234);
  EXPECT_EQ(f.timeout, 60);
  EXPECT_TRUE(f.wait);
  EXPECT_FALSE(f.inject);
}

TEST(Flags, BoolTakesNoSeparateValue) {
  Flags f;
  ASSERT_TRUE(f.set.parse({"--inject-hosts-env", "false", "--port=1"}));
  EXPECT_TRUE(f.inject);  // "false" is the first non-flag: parsing stops there
  EXPECT_EQ(f.port, 23456);
  EXPECT_EQ(f.set.remaining(), (std::vector<std::string>{"false", "--port=1"}));
}

TEST(Flags, GoBoolSpellings) {
  for (const char* t : {"1", "t", "T", "TRUE", "true", "True"}) {
    Flags f;
    ASSERT_TRUE(f.set.parse({std::string("--wait-master-enabled=") + t}));
    EXPECT_TRUE(f.wait) << t;
  }
  for (const char* t : {"0", "f", "F", "FALSE", "false", "False"}) {
    Flags f;
    ASSERT_TRUE(f.set.parse({std::string("--inject-hosts-env=") + t}));
    EXPECT_FALSE(f.inject) << t;
  }
}

TEST(Flags, DoubleDashTerminates) {
  Flags f;
  ASSERT_TRUE(f.set.parse({"--port=5", "--", "--master=x"}));
  EXPECT_EQ(f.port, 5);
  EXPECT_EQ(f.master, "master");
  EXPECT_EQ(f.set.remaining(), (std::vector<std::string>{"--master=x"}));
}

TEST(Flags, IntegerSyntaxOfStrconvBase0) {
  const std::pair<const char*, int32_t> cases[] = {{"0x1F", 31}, {"0o17", 15}, {"017", 15}, {"0b101", 5},
                                                   {"-42", -42}, {"+7", 7},    {"0", 0},     {"0x_1f", 31},
                                                   {"1_000", 1000}, {"1__0", -1}, {"_1", -1}, {"1_", -1}, {"0_17", 15}};
  for (auto [text, want] : cases) {
    Flags f;
    Status st = f.set.parse({std::string("--port=") + text});
    if (want == -1) {
      EXPECT_FALSE(st) << text;
    } else {
      ASSERT_TRUE(st) << text << ": " << st.message();
      EXPECT_EQ(f.port, want) << text;
    }
  }
}

TEST(Flags, GoErrorTexts) {
  const std::pair<std::vector<std::string>, const char*> cases[] = {
      {{"--nope=1"}, "plugin pytorch: flag provided but not defined: -nope"},
      {{"-x"}, "plugin pytorch: flag provided but not defined: -x"},
      {{"-h"}, "plugin pytorch: flag: help requested"},  // Go's ErrHelp, for -h and -help when not defined
      {{"--help=1", "--port=1"}, "plugin pytorch: flag: help requested"},
      {{"---port=1"}, "plugin pytorch: bad flag syntax: ---port=1"},
      {{"-=1"}, "plugin pytorch: bad flag syntax: -=1"},
      {{"--port"}, "plugin pytorch: flag needs an argument: -port"},
      {{"--port=abc"}, "plugin pytorch: invalid value \"abc\" for flag -port: parse error"},
      {{"--port=99999999999"}, "plugin pytorch: invalid value \"99999999999\" for flag -port: value out of range"},
      {{"--wait-master-enabled=yes"}, "plugin pytorch: invalid boolean value \"yes\" for -wait-master-enabled: parse error"},
  };
  for (const auto& [args, want] : cases) {
    Flags f;
    EXPECT_EQ(f.set.parse(args).message(), want);
  }
}

TEST(Flags, ValuesSetBeforeAnErrorAreKept) {
  Flags f;
  EXPECT_FALSE(f.set.parse({"--port=1", "--unknown", "--master=x"}));
  EXPECT_EQ(f.port, 1);
  EXPECT_EQ(f.master, "master");
}

// Go's boolValue.Set and intValue.Set store what strconv returned even with the error: false for a
// bad bool, 0 for a bad number, the bound for a number out of range.
TEST(Flags, ABadValueIsStoredAsGoStoresIt) {
  Flags f;
  f.wait = true;
  EXPECT_FALSE(f.set.parse({"--inject-hosts-env=bogus"}));
  EXPECT_FALSE(f.inject);
  EXPECT_FALSE(f.set.parse({"--port=1", "--port=abc"}));
  EXPECT_EQ(f.port, 0);
  EXPECT_FALSE(f.set.parse({"--wait-master-timeout=-99999999999999999999"}));
  EXPECT_EQ(f.timeout, std::numeric_limits<int64_t>::min());
  EXPECT_FALSE(f.set.parse({"--wait-master-timeout=0x8000000000000000"}));
  EXPECT_EQ(f.timeout, std::numeric_limits<int64_t>::max());
  EXPECT_FALSE(f.set.parse({"--port=99999999999"}));  // an int32 flag: its own bound
  EXPECT_EQ(f.port, std::numeric_limits<int32_t>::max());
  EXPECT_FALSE(f.set.parse({"--wait-master-enabled=", "--master=x"}));
  EXPECT_FALSE(f.wait);
  EXPECT_EQ(f.master, "master");
}

TEST(Flags, NonFlagStopsParsing) {
  Flags f;
  ASSERT_TRUE(f.set.parse({"-", "--port=9"}));
  EXPECT_EQ(f.port, 23456);
}

}  // namespace
}  // namespace jobhost
