// Parse -> encode round trips: unknown fields come back where they were, canonical input comes
// back unchanged, the encoder's output for the full job is exactly the golden JSON, and the
// encoded JSON (and its YAML rendering) decodes back to the same Job.
#include <gtest/gtest.h>

#include "host/spec/encode.h"
#include "host/spec/job_loader.h"
#include "host/spec/writers.h"

namespace jobhost {
namespace {

const std::string kData = JOBHOST_SOURCE_DIR "/tests/spec/data/";

JobDocument loadOne(const std::string& path) {
  auto docs = loadJobs(path);
  EXPECT_TRUE(docs.ok()) << docs.error();
  return std::move(docs->front());
}

std::string encodedJson(const Job& job, bool pretty) {
  rapidjson::Document d;
  return toJson(encodeJob(job, d.GetAllocator()), pretty);
}

TEST(RoundTrip, CanonicalJobWithUnknownFieldsComesBackUnchanged) {
  JobDocument doc = loadOne(kData + "canonical_job.yaml");
  EXPECT_EQ(doc.job.unknown, (UnknownFields{{"apiExtra", "\"top-level-unknown\""}}));
  EXPECT_EQ(doc.job.spec.unknown, (UnknownFields{{"futureField", R"({"nested":[1,2.5,true,null,"x"]})"}}));
  EXPECT_EQ(doc.job.spec.tasks[0].unknown, (UnknownFields{{"customTaskField", "\"keep-me\""}}));

  rapidjson::Document out;
  rapidjson::Value encoded = encodeJob(doc.job, out.GetAllocator());
  EXPECT_TRUE(encoded == doc.source.doc) << "encoded:\n" << toJson(encoded, true) << "\ninput:\n" << toJson(doc.source.doc, true);
}

TEST(RoundTrip, UnknownFieldsFollowModelledFieldsInInputOrder) {
  auto docs = parseJobs(R"({"zzz":1,"apiVersion":"batch.volcano.sh/v1alpha1","kind":"Job","aaa":[2],
    "metadata":{"finalizers":["f"],"name":"n","generation":4},
    "spec":{"tasks":[{"replicas":1,"template":{"spec":{"containers":[{"stdin":true,"name":"c","tty":false}]}}}]}})",
                        "order.json");
  ASSERT_TRUE(docs.ok()) << docs.error();
  EXPECT_EQ(encodedJson(docs->front().job, false),
            R"({"apiVersion":"batch.volcano.sh/v1alpha1","kind":"Job",)"
            R"("metadata":{"name":"n","namespace":"default","finalizers":["f"],"generation":4},)"
            R"("spec":{"tasks":[{"replicas":1,"template":{"spec":{"containers":[{"name":"c","stdin":true,"tty":false}]}}}]},)"
            R"("zzz":1,"aaa":[2]})");
}

TEST(RoundTrip, FullJobEncodesToGoldenJson) {
  JobDocument doc = loadOne(kData + "full_job.yaml");
  auto golden = readFile(kData + "full_job.expected.json");
  ASSERT_TRUE(golden.ok()) << golden.error();
  EXPECT_EQ(encodedJson(doc.job, true) + "\n", *golden);
}

TEST(RoundTrip, EncodedJsonAndYamlDecodeToTheSameJob) {
  for (const char* file : {"full_job.yaml", "canonical_job.yaml"}) {
    Job job = loadOne(kData + file).job;
    rapidjson::Document out;
    rapidjson::Value encoded = encodeJob(job, out.GetAllocator());

    auto fromJson = parseJobs(toJson(encoded, false), "again.json");
    ASSERT_TRUE(fromJson.ok()) << fromJson.error();
    EXPECT_EQ(fromJson->front().job, job) << file;

    auto fromYaml = parseJobs(toYaml(encoded), "again.yaml");
    ASSERT_TRUE(fromYaml.ok()) << fromYaml.error();
    EXPECT_EQ(fromYaml->front().job, job) << file;
  }
}

TEST(RoundTrip, JobFieldsSetInCodeEncodeWithKubernetesNames) {
  Job job;
  job.metadata.name = "built";
  job.metadata.namespace_ = "ns";
  TaskSpec task;
  task.name = "t";
  task.replicas = 0;  // required: written even when zero
  Container c;
  c.name = "main";
  c.ports.push_back({"", 0, "", 0, ""});
  c.unknown = {{"name", "\"shadowed\""}, {"notJson", "{oops"}};
  task.template_.spec.containers.push_back(c);
  job.spec.tasks.push_back(task);
  EXPECT_EQ(encodedJson(job, false),
            R"({"apiVersion":"batch.volcano.sh/v1alpha1","kind":"Job","metadata":{"name":"built","namespace":"ns"},)"
            R"("spec":{"tasks":[{"name":"t","replicas":0,"template":{"spec":{"containers":[)"
            R"({"name":"main","ports":[{"containerPort":0}],"notJson":"{oops"}]}}}]}})");
}

}  // namespace
}  // namespace jobhost
