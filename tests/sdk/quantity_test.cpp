// Kubernetes quantity parsing, canonical formatting and arithmetic, table-driven.
#include "jobhost/quantity.h"

#include <gtest/gtest.h>

namespace jobhost {
namespace {

struct Case {
  const char* text;
  int64_t milli;
  const char* canonical;
};

TEST(Quantity, ParsesAndCanonicalises) {
  const Case cases[] = {
      {"500m", 500, "500m"},        {"1", 1000, "1"},           {"1.5", 1500, "1500m"},
      {"2", 2000, "2"},             {"0.1", 100, "100m"},       {".5", 500, "500m"},
      {"2Gi", 2147483648000, "2Gi"}, {"1536Mi", 1610612736000, "1536Mi"},
      {"1.5Gi", 1610612736000, "1536Mi"}, {"2048Mi", 2147483648000, "2Gi"},
      {"1k", 1000000, "1k"},         {"1000", 1000000, "1k"},    {"2000000000", 2000000000000, "2G"},
      {"1e3", 1000000, "1e3"},       {"1E3", 1000000, "1e3"},    {"100n", 1, "1m"},
      {"1u", 1, "1m"},               {"-1", -1000, "-1"},        {"+2", 2000, "2"},
      {"0", 0, "0"},                 {"1Ki", 1024000, "1Ki"},    {"1023Ki", 1047552000, "1023Ki"},
      {"100Mi", 104857600000, "100Mi"}, {"32Gi", 34359738368000, "32Gi"}, {"1.", 1000, "1"},
  };
  for (const auto& c : cases) {
    auto q = Quantity::parse(c.text);
    ASSERT_TRUE(q) << c.text;
    EXPECT_EQ(q->milliValue(), c.milli) << c.text;
    EXPECT_EQ(q->toString(), c.canonical) << c.text;
  }
}

TEST(Quantity, RejectsInvalidWithAClearMessage) {
  for (const char* bad : {"", "abc", "1.2.3", "1Qi", "1KB", "1K", "--1", "1e", "Gi", "1 Gi"}) {
    std::string error;
    EXPECT_FALSE(Quantity::parse(bad, &error)) << bad;
    EXPECT_NE(error.find("quantity \"" + std::string(bad) + "\" is invalid"), std::string::npos) << error;
    EXPECT_NE(error.find("use a number with an optional suffix such as 500m, 2Gi or 1.5"), std::string::npos);
  }
  std::string error;
  EXPECT_FALSE(Quantity::parse("99999999Ei", &error));
  EXPECT_NE(error.find("too large"), std::string::npos);
}

TEST(Quantity, ExtremeInputsNeverOverflow) {
  std::string error;
  EXPECT_FALSE(Quantity::parse("19722.92332226752462E22", &error));  // found by fuzz/quantity
  EXPECT_NE(error.find("too large"), std::string::npos);
  EXPECT_FALSE(Quantity::parse("9999999999999999999999999999999999999999999999n", &error));
  EXPECT_NE(error.find("too large"), std::string::npos);
  EXPECT_EQ(Quantity::parse("1e-9999")->milliValue(), 1);
  EXPECT_EQ(Quantity::parse("0.0000000000000000000000000000000000000000000001")->milliValue(), 1);
  EXPECT_EQ(Quantity::parse("0.000000000000000000000000000000000000000000000")->milliValue(), 0);
  EXPECT_EQ(Quantity::parse("1.00000000000000000000000000000001")->milliValue(), 1001);
  EXPECT_EQ(Quantity::parse("123456789012345678901n")->milliValue(), 123456789012346);
  EXPECT_EQ(Quantity::parse("7Pi")->value(), 7 * (int64_t{1} << 50));
}

TEST(Quantity, ValueRoundsUpLikeKubernetes) {
  EXPECT_EQ(Quantity::parse("2.5")->value(), 3);
  EXPECT_EQ(Quantity::parse("0.7")->value(), 1);
  EXPECT_EQ(Quantity::parse("100m")->value(), 1);
  EXPECT_EQ(Quantity::parse("4")->value(), 4);
  EXPECT_EQ(Quantity::parse("0")->value(), 0);
}

TEST(Quantity, Arithmetic) {
  ResourceList a{{"cpu", *Quantity::parse("500m")}, {"memory", *Quantity::parse("1Gi")}};
  ResourceList b{{"cpu", *Quantity::parse("1.5")}, {"nvidia.com/gpu", *Quantity::parse("1")}};
  addResources(a, b);
  EXPECT_EQ(a["cpu"].toString(), "2");
  EXPECT_EQ(a["memory"].toString(), "1Gi");
  EXPECT_EQ(a["nvidia.com/gpu"].toString(), "1");
  EXPECT_EQ(Quantity::parse("256Mi")->multipliedBy(4).toString(), "1Gi");
  EXPECT_LT(*Quantity::parse("999m"), *Quantity::parse("1"));
  EXPECT_EQ(*Quantity::parse("1000m"), *Quantity::parse("1"));
}

TEST(Quantity, AZeroTakesTheFormatOfWhatIsAddedLikeGosAdd) {
  Quantity total = *Quantity::parse("0");
  total += *Quantity::parse("1Ki");
  total += *Quantity::parse("1Ki");
  EXPECT_EQ(total.toString(), "2Ki");
  EXPECT_EQ((*Quantity::parse("1024") + *Quantity::parse("1Ki")).toString(), "2048");  // a non-zero keeps its own
}

}  // namespace
}  // namespace jobhost
