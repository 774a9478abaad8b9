// Golden render tests: `jobhost render` of every example job (default config, real plugins) must
// equal tests/cli/golden/<job>.yaml byte for byte. JOBHOST_UPDATE_GOLDEN=1 rewrites the files.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "host/cli/cli.h"

namespace jobhost::cli {
namespace {

namespace fs = std::filesystem;

std::string readAll(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class RenderGolden : public ::testing::TestWithParam<std::string> {};

TEST_P(RenderGolden, MatchesGoldenFile) {
  const fs::path job = fs::path(JOBHOST_SOURCE_DIR) / "examples/jobs" / (GetParam() + ".yaml");
  const fs::path golden = fs::path(JOBHOST_SOURCE_DIR) / "tests/cli/golden" / (GetParam() + ".yaml");
  std::ostringstream out, err;
  int rc = runCli({"render", job.string()}, {out, err});
  ASSERT_EQ(rc, kOk) << err.str();
  if (std::getenv("JOBHOST_UPDATE_GOLDEN") != nullptr) std::ofstream(golden) << out.str();
  ASSERT_TRUE(fs::exists(golden)) << golden << " missing; run with JOBHOST_UPDATE_GOLDEN=1";
  EXPECT_EQ(out.str(), readAll(golden)) << "render of " << job << " changed";
}

TEST_P(RenderGolden, JsonOutputCarriesTheSameObjects) {
  const fs::path job = fs::path(JOBHOST_SOURCE_DIR) / "examples/jobs" / (GetParam() + ".yaml");
  std::ostringstream out, err;
  ASSERT_EQ(runCli({"render", job.string(), "-o", "json"}, {out, err}), kOk) << err.str();
  EXPECT_EQ(out.str().rfind("{\n  \"apiVersion\": \"v1\",\n  \"kind\": \"List\",", 0), 0u) << out.str().substr(0, 80);
}

// Every job in examples/jobs/, so a new example gets a golden file too.
std::vector<std::string> exampleJobs() {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(fs::path(JOBHOST_SOURCE_DIR) / "examples/jobs"))
    if (e.path().extension() == ".yaml") names.push_back(e.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

TEST(RenderGoldenCoverage, TheExamplesAreFound) { EXPECT_GE(exampleJobs().size(), 10u); }

INSTANTIATE_TEST_SUITE_P(Examples, RenderGolden, ::testing::ValuesIn(exampleJobs()),
                         [](const auto& info) {
                           std::string n = info.param;
                           for (auto& c : n)
                             if (c == '-') c = '_';
                           return n;
                         });

TEST(Render, SecretsAreRedactedUnlessAsked) {
  const std::string job = std::string(JOBHOST_SOURCE_DIR) + "/examples/jobs/mpi-lm.yaml";
  std::ostringstream out, err, shown, err2;
  ASSERT_EQ(runCli({"render", job}, {out, err}), kOk) << err.str();
  EXPECT_EQ(out.str().find("BEGIN RSA PRIVATE KEY"), std::string::npos);
  EXPECT_NE(out.str().find("id_rsa: PHJlZGFjdGVkPg=="), std::string::npos);
  ASSERT_EQ(runCli({"render", job, "--show-secrets"}, {shown, err2}), kOk);
  EXPECT_EQ(shown.str().find("id_rsa: PHJlZGFjdGVkPg=="), std::string::npos);
}

}  // namespace
}  // namespace jobhost::cli
