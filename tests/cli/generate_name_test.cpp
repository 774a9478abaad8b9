// The API server's naming on create: a job without a name is named from metadata.generateName (prefix
// cut to 58 bytes + 5 characters of apimachinery's alphabet), and names must be DNS-1123 subdomains.
#include <gtest/gtest.h>

#include <regex>
#include <set>

#include "host/admission/create_naming.h"
#include "tests/cli/cli_test_util.h"

namespace jobhost::cli {
namespace {

std::string jobFile(const std::string& name, const std::string& metadata) {
  return writeTemp(name, "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nmetadata:\n" + metadata +
                             "spec:\n  tasks:\n    - name: worker\n      replicas: 2\n"
                             "      template: {spec: {containers: [{name: main, image: busybox}]}}\n");
}

TEST(GenerateName, TheNameIsThePrefixAndFiveCharactersOfKubernetesAlphabet) {
  const std::regex shape("hello-[bcdfghjklmnpqrstvwxz2456789]{5}");
  std::set<std::string> names;
  for (int i = 0; i < 50; ++i) {
    const std::string name = generatedName("hello-");
    EXPECT_TRUE(std::regex_match(name, shape)) << name;
    names.insert(name);
  }
  EXPECT_GT(names.size(), 45u);  // 27^5 names: 50 draws repeat one almost never
  const std::string longPrefix(70, 'a');
  EXPECT_EQ(generatedName(longPrefix).size(), 63u);
  EXPECT_EQ(generatedName(longPrefix).substr(0, 58), longPrefix.substr(0, 58));
}

TEST(GenerateName, AnUnnamedJobIsNamedBeforeAdmissionAndItsPodsCarryTheName) {
  auto file = jobFile("generate-name.yaml", "  generateName: train-\n");
  auto r = run({"render", file, "-o", "json"});
  ASSERT_EQ(r.rc, kOk) << r.err;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.err, m, std::regex(":4:17: note: the job is named \"(train-[bcdfghjklmnpqrstvwxz2456789]{5})\""
                                                     " from metadata.generateName, as the API server names it on create\n")))
      << r.err;
  const std::string name = m[1];
  EXPECT_NE(r.out.find("\"name\": \"" + name + "-worker-0\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"name\": \"" + name + "-worker-1\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"generateName\": \"train-\""), std::string::npos) << r.out;  // kept, as on a cluster
  EXPECT_EQ(r.err.find("validate failed"), std::string::npos) << r.err;

  auto script = writeTemp("generate-name-script.yaml", "defaults: {runFor: 2s}\n");
  r = run({"simulate", file, "--script", script});
  ASSERT_EQ(r.rc, kOk) << r.err;
  EXPECT_TRUE(std::regex_search(r.out, std::regex(R"("event":"TaskCompleted","pod":"train-[a-z0-9]{5}-worker-1")"))) << r.out;
  EXPECT_NE(r.out.find(R"({"final":{"state":{"phase":"Completed")"), std::string::npos) << r.out;
}

TEST(GenerateName, AnExplicitNameWinsAndNoNoteIsPrinted) {
  auto r = run({"validate", jobFile("named-and-generated.yaml", "  name: fixed\n  generateName: train-\n")});
  EXPECT_EQ(r.rc, kOk) << r.out;
  EXPECT_EQ(r.out.find("generateName"), std::string::npos) << r.out;
  r = run({"render", jobFile("named-and-generated.yaml", "  name: fixed\n  generateName: train-\n")});
  EXPECT_NE(r.out.find("name: fixed-worker-0"), std::string::npos) << r.out;
}

TEST(GenerateName, NeitherNameNorGenerateNameIsTheApiServersRequiredErrorAlone) {
  auto file = jobFile("nameless.yaml", "  namespace: team\n");
  auto r = run({"validate", file});
  EXPECT_EQ(r.rc, kRejected) << r.out;
  EXPECT_EQ(r.out, file + ": job team/: rejected (1 error)\n" + file +
                       ":4:3: metadata.name: Required value: name or generateName is required\n" + file +
                       ": on Volcano: The Job \"\" is invalid: metadata.name: Required value: name or generateName is "
                       "required\n");
}

const std::string kSubdomainRule =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and "
    "end with an alphanumeric character (e.g. 'example.com', regex used for validation is "
    "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

TEST(GenerateName, AnInvalidPrefixIsReportedAtGenerateNameAndTheNameMadeFromIt) {
  auto file = jobFile("bad-prefix.yaml", "  generateName: Train_\n");
  auto r = run({"validate", file});
  EXPECT_EQ(r.rc, kRejected) << r.out;
  const std::string name = r.out.substr(file.size() + 14, 11);  // after "<file>: job default/"
  EXPECT_TRUE(std::regex_match(name, std::regex("Train_[bcdfghjklmnpqrstvwxz2456789]{5}"))) << r.out;
  EXPECT_EQ(r.out, file + ": job default/" + name + ": rejected (2 errors)\n" +  //
                       file + ":4:17: metadata.generateName: Invalid value: \"Train_\": " + kSubdomainRule + "\n" +
                       file + ":4:3: metadata.name: Invalid value: \"" + name + "\": " + kSubdomainRule + "\n" +
                       // kubectl lists several causes of the 422 Invalid answer on lines of their own
                       file + ": on Volcano: The Job \"" + name + "\" is invalid:\n" +
                       "* metadata.generateName: Invalid value: \"Train_\": " + kSubdomainRule + "\n" +
                       "* metadata.name: Invalid value: \"" + name + "\": " + kSubdomainRule + "\n");
  // A trailing '-' is allowed (masked before the check); a lone '-' is not masked and is invalid.
  EXPECT_EQ(run({"validate", jobFile("dash-prefix.yaml", "  generateName: a-b-\n")}).rc, kOk);
  EXPECT_EQ(run({"validate", jobFile("lone-dash.yaml", "  generateName: \"-\"\n")}).rc, kRejected);
}

// The API server checks a custom resource's name as a DNS-1123 subdomain before any webhook; the
// webhook's own name rule (a qualified name) still follows, as jobhost lists every error, but the
// "on Volcano" line is the API server's 422 Invalid answer as kubectl prints it, not the webhook's.
TEST(GenerateName, AJobNameThatIsNoSubdomainIsTheApiServersErrorFirst) {
  auto upper = jobFile("upper.yaml", "  name: Job1\n");
  auto r = run({"validate", upper});
  EXPECT_EQ(r.rc, kRejected) << r.out;
  EXPECT_EQ(r.out, upper + ": job default/Job1: rejected (1 error)\n" + upper +
                       ":4:9: metadata.name: Invalid value: \"Job1\": " + kSubdomainRule + "\n" + upper +
                       ": on Volcano: The Job \"Job1\" is invalid: metadata.name: Invalid value: \"Job1\": " +
                       kSubdomainRule + "\n");
  auto dash = jobFile("dash.yaml", "  name: -job\n");
  r = run({"validate", dash});
  EXPECT_EQ(r.rc, kRejected) << r.out;
  EXPECT_EQ(r.out.rfind(dash + ": job default/-job: rejected (3 errors)\n" + dash +
                            ":4:9: metadata.name: Invalid value: \"-job\": " + kSubdomainRule + "\n",
                        0),
            0u)
      << r.out;
  EXPECT_TRUE(contains(r.out, "metadata.name: create job with name -job validate failed")) << r.out;
  EXPECT_TRUE(contains(r.out, dash + ": on Volcano: The Job \"-job\" is invalid: metadata.name: Invalid value: \"-job\": " +
                                  kSubdomainRule + "\n"))
      << r.out;
  EXPECT_FALSE(contains(r.out, "admission webhook")) << r.out;  // the webhook never sees the job
}

}  // namespace
}  // namespace jobhost::cli
