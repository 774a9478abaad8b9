// CLI tests run the real command table in-process: help, version, exit codes, `plugins` listing
// the shipped .so files, `validate` output with file:line:column, config and load errors.
#include "host/cli/cli.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "host/spec/uid.h"
#include "host/workload/names.h"
#include "jobhost/version.h"
#include "tests/cli/cli_test_util.h"

namespace jobhost::cli {
namespace {

std::string example(const std::string& name) { return std::string(JOBHOST_SOURCE_DIR) + "/examples/jobs/" + name; }

TEST(Cli, HelpVersionAndUsageErrors) {
  auto help = run({"--help"});
  EXPECT_EQ(help.rc, kOk);
  EXPECT_NE(help.out.find("usage: jobhost <command> [options]"), std::string::npos);
  EXPECT_NE(help.out.find("  render    print every Kubernetes object"), std::string::npos);
  EXPECT_EQ(run({}).rc, kUsage);
  auto version = run({"--version"});
  const std::string abi = JOBHOST_STR(JOBHOST_ABI_MAJOR) "." JOBHOST_STR(JOBHOST_ABI_MINOR);
  EXPECT_EQ(version.out, "jobhost " JOBHOST_SDK_VERSION_STRING " (plugin ABI " + abi + ", build key " JOBHOST_BUILD_KEY ")\n");
  auto unknown = run({"launch"});
  EXPECT_EQ(unknown.rc, kUsage);
  EXPECT_NE(unknown.err.find("jobhost: unknown command \"launch\""), std::string::npos);
  auto badOption = run({"plugins", "--colour"});
  EXPECT_EQ(badOption.rc, kUsage);
  EXPECT_NE(badOption.err.find("jobhost plugins: unknown option --colour"), std::string::npos);
  auto cmdHelp = run({"validate", "--help"});
  EXPECT_EQ(cmdHelp.rc, kOk);
  EXPECT_EQ(cmdHelp.out.rfind("usage: jobhost validate JOB... [--config FILE]", 0), 0u);
}

TEST(Cli, PluginsListsTheSixShippedPluginsFromTheirSharedObjects) {
  auto r = run({"plugins"});
  ASSERT_EQ(r.rc, kOk) << r.err;
  for (const char* name : {"env", "svc", "ssh", "torch (pytorch)", "mpi", "coscheduling"})
    EXPECT_NE(r.out.find(std::string("\n") + name + " "), std::string::npos) << name << "\n" << r.out;
  for (const char* file : {"libjobhost_env.so", "libjobhost_svc.so", "libjobhost_ssh.so", "libjobhost_torch.so",
                           "libjobhost_mpi.so", "libjobhost_coscheduling.so"})
    EXPECT_NE(r.out.find(std::string(JOBHOST_PLUGIN_DIR) + "/" + file), std::string::npos) << file;
  EXPECT_NE(r.out.find("Validation,MLPolicy,JobHooks"), std::string::npos) << r.out;
}

TEST(Cli, PluginsWidensAColumnForAPluginWithManyPoints) {
  auto config = writeTemp("probe.json", R"({"pluginPath": [")" JOBHOST_FIXTURE_DIR R"("],
      "plugins": [{"name": "probea", "activation": "always"}]})");
  auto r = run({"plugins", "--config", config});
  ASSERT_EQ(r.rc, kOk) << r.err;
  const std::string points = "MLPolicy,PodGroupPolicy,PodNetwork,ComponentBuild";
  const size_t at = r.out.find(points);
  ASSERT_NE(at, std::string::npos) << r.out;
  EXPECT_EQ(r.out.substr(at + points.size(), 8), " always ") << r.out;
  EXPECT_EQ(r.out.find("EXTENSION POINTS"), at - r.out.find('\n') - 1) << "the header lines up:\n" << r.out;
}

TEST(Cli, PluginsReportsARequiredPluginThatFailsToLoad) {
  auto config = writeTemp("broken.json", R"({"pluginPath": [")" JOBHOST_FIXTURE_DIR R"("],
      "plugins": [{"name": "abimajor"}]})");
  auto r = run({"plugins", "--config", config});
  EXPECT_EQ(r.rc, kConfigError);
  const std::string abi = std::to_string(JOBHOST_ABI_MAJOR + 1) + "." + std::to_string(JOBHOST_ABI_MINOR);
  EXPECT_NE(r.err.find("jobhost: plugin load failed: " JOBHOST_FIXTURE_DIR "/libjobhost_abimajor.so: plugin "
                       "\"abimajor\" was built for plugin ABI " + abi),
            std::string::npos)
      << r.err;
}

TEST(Cli, ConfigErrorsNameTheFileAndLine) {
  auto config = writeTemp("bad.json", "{\n  \"controller\": {\"workers\": \"three\"}\n}\n");
  auto r = run({"plugins", "--config", config});
  EXPECT_EQ(r.rc, kConfigError);
  EXPECT_EQ(r.err, "jobhost: config error: " + config + ":2:18: controller.workers: must be an integer\n");
}

TEST(Cli, ValidateAcceptsEveryExample) {
  for (const char* f : {"tensorflow-dist-mnist.yaml", "pytorch-mnist.yaml", "mpi-lm.yaml", "depends-on.yaml",
                        "partitioned.yaml", "task-policies.yaml"}) {
    auto r = run({"validate", example(f)});
    EXPECT_EQ(r.rc, kOk) << f << "\n" << r.out << r.err;
  }
}

TEST(Cli, ValidatePrintsEveryErrorWithItsPlace) {
  auto job = writeTemp("bad-job.yaml", R"(apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata:
  name: bad
spec:
  queue: nowhere
  plugins:
    mpi: []
    pytorch: ["--bogus=1"]
  tasks:
    - name: mpimaster
      replicas: 1
      template:
        spec:
          containers:
            - name: main
              image: busybox
)");
  auto r = run({"validate", job});
  EXPECT_EQ(r.rc, kRejected);
  EXPECT_NE(r.out.find(job + ": job default/bad: rejected ("), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("The specified mpi master task was not found"), std::string::npos) << r.out;
}

TEST(Cli, ValidateRejectsPolicyAndQueueErrorsWithVolcanoWording) {
  auto job = writeTemp("bad-policy.yaml", R"(apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata:
  name: bad-policy
spec:
  queue: nowhere
  policies:
    - event: PodExploded
      action: RestartJob
  tasks:
    - name: worker
      replicas: 2
      minAvailable: 3
      template:
        spec:
          containers:
            - name: main
              image: busybox
)");
  auto r = run({"validate", job});
  EXPECT_EQ(r.rc, kRejected);
  EXPECT_NE(r.out.find(job + ":13:21: spec.tasks[0].minAvailable: 'minAvailable' is greater than 'replicas' in "
                             "task: worker, job: bad-policy"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("invalid policy event"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("unable to find job queue: queue.scheduling.volcano.sh \"nowhere\" not found"), std::string::npos) << r.out;
  // Then what kubectl would show on Volcano: its webhook's one concatenated message, word for word.
  EXPECT_NE(r.out.find(job + ": on Volcano: admission webhook \"validatejob.volcano.sh\" denied the request: 'minAvailable' "
                             "is greater than 'replicas' in task: worker, job: bad-policy; job 'minAvailable' should "
                             "not be greater than total replicas in tasks;1 error occurred:\n\t* spec.policies: Invalid "
                             "value: \"PodExploded\": invalid policy event\n\n valid events are [* PodFailed PodEvicted "
                             "PodPending Unknown TaskCompleted TaskFailed JobUpdated], valid actions are [AbortJob "
                             "RestartJob RestartTask RestartPod RestartPartition TerminateJob CompleteJob ResumeJob]; "
                             "unable to find job queue: queue.scheduling.volcano.sh \"nowhere\" not found;\n"),
            std::string::npos)
      << r.out;
}

const char* kQueuedJob = R"(---
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: queued}
spec:
  queue: team
  tasks:
    - name: worker
      replicas: 1
      template: {spec: {containers: [{name: main, image: busybox}]}}
)";

TEST(Cli, QueuesConfigMapsAndSecretsBesideAJobAreReadAndOtherKindsAreSkippedWithANote) {
  auto open = writeTemp("queue-and-job.yaml", std::string(R"(apiVersion: scheduling.volcano.sh/v1beta1
kind: Queue
metadata: {name: team}
spec: {weight: 1}
---
apiVersion: v1
kind: Service
metadata: {name: extra}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: settings}
data: {a: b}
---
apiVersion: v1
kind: Secret
metadata: {name: token, namespace: elsewhere}
stringData: {t: x}
)") + kQueuedJob);
  auto r = run({"validate", open});
  EXPECT_EQ(r.rc, kOk) << r.out;
  EXPECT_NE(r.out.find(open + ":2:7: note: queue \"team\" (Open, parent root) declared for this file's jobs\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find(open + ":7:7: note: skipped Service \"extra\" (v1): only Volcano Jobs, Queues, ConfigMaps and "
                              "Secrets are read from job files\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find(open + ":11:7: note: ConfigMap \"settings\" declared for this file's jobs (namespace default)\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find(open + ":16:7: note: Secret \"token\" declared for this file's jobs (namespace elsewhere)\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find(open + ": note: no job of this file runs in namespace elsewhere, so jobhost run does not create "
                              "its ConfigMaps and Secrets; set their metadata.namespace to the job's\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find(open + ": job default/queued: valid"), std::string::npos) << r.out;

  auto closed = writeTemp("closed-queue-and-job.yaml", std::string(R"(apiVersion: scheduling.volcano.sh/v1beta1
kind: Queue
metadata: {name: team}
status: {state: Closed}
)") + kQueuedJob);
  r = run({"validate", closed});
  EXPECT_EQ(r.rc, kRejected) << r.out;
  EXPECT_NE(r.out.find("can only submit job to queue with state `Open`, queue `team` status is `Closed`"),
            std::string::npos)
      << r.out;

  auto none = writeTemp("no-job.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: extra}\n");
  r = run({"validate", none});
  EXPECT_EQ(r.rc, kInputError);
  EXPECT_NE(r.out.find(none + ": no job found; expected a Volcano Job (batch.volcano.sh/v1alpha1); it holds only "
                              "ConfigMap \"extra\""),
            std::string::npos)
      << r.out;

  auto badSecret = writeTemp("bad-secret.yaml", std::string("apiVersion: v1\nkind: Secret\nmetadata: {name: s}\n"
                                                             "data: {t: \"no!\"}\n---\n") + kQueuedJob);
  r = run({"validate", badSecret});
  EXPECT_EQ(r.rc, kInputError);
  EXPECT_NE(r.out.find(badSecret + ":4:11: data.t: is not base64: illegal base64 data at input byte 2\n"),
            std::string::npos)
      << r.out;
}

// `kubectl apply -f queues.yaml -f jobs.yaml`: a Queue of an earlier file exists for the jobs of
// the files after it, not before.
TEST(Cli, ValidateCarriesAFilesQueuesToTheFilesAfterIt) {
  auto queues = writeTemp("queues-only.yaml", "apiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nmetadata: {name: team}\n");
  auto jobs = writeTemp("queued-job.yaml", kQueuedJob);
  const cli::Run inOrder = run({"validate", queues, jobs}), reversed = run({"validate", jobs, queues});
  EXPECT_EQ(std::vector<int>({inOrder.rc, reversed.rc}), std::vector<int>({kOk, kRejected}));
  EXPECT_TRUE(contains(inOrder.out, queues + ":2:7: note: queue \"team\" (Open, parent root) declared")) << inOrder.out;
  EXPECT_TRUE(contains(inOrder.out, jobs + ": job default/queued: valid\n")) << inOrder.out;
  EXPECT_TRUE(contains(reversed.out, jobs + ": job default/queued: rejected (1 error)\n")) << reversed.out;
  EXPECT_TRUE(contains(reversed.out, "unable to find job queue")) << reversed.out;
  const cli::Run render = run({"render", queues});
  EXPECT_EQ(render.rc, kInputError);
  EXPECT_TRUE(contains(render.err, "jobhost render: " + queues + " holds no job; render takes one or more\n")) << render.err;
}

// A Kubernetes Job (batch/v1) is another kind: skipped with a note like a Service, while a Job of a
// mistyped Volcano apiVersion is still reported.
TEST(Cli, AKubernetesBatchJobIsSkippedWithANote) {
  const std::string k8sJob = "apiVersion: batch/v1\nkind: Job\nmetadata: {name: plain}\n"
                             "spec: {template: {spec: {containers: [{name: c, image: busybox}]}}}\n";
  const std::string queue = "---\napiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nmetadata: {name: team}\n";
  auto mixed = writeTemp("k8s-and-volcano.yaml", k8sJob + queue + kQueuedJob);
  auto only = writeTemp("k8s-only.yaml", k8sJob);
  const std::string volcanoJob(kQueuedJob);
  auto typo = writeTemp("typo.yaml", "apiVersion: batch.volcano.sh/v1\n" + volcanoJob.substr(volcanoJob.find("kind:")));

  const cli::Run mixedRun = run({"validate", mixed}), onlyRun = run({"validate", only}), typoRun = run({"validate", typo});
  EXPECT_EQ(std::vector<int>({mixedRun.rc, onlyRun.rc, typoRun.rc}), std::vector<int>({kOk, kInputError, kInputError}));
  EXPECT_TRUE(contains(mixedRun.out, mixed + ":2:7: note: skipped Job \"plain\" (batch/v1): only Volcano Jobs, Queues, "
                                             "ConfigMaps and Secrets are read from job files\n"))
      << mixedRun.out;
  EXPECT_TRUE(contains(onlyRun.out, only + ": no job found; expected a Volcano Job (batch.volcano.sh/v1alpha1); it "
                                           "holds only Job \"plain\""))
      << onlyRun.out;
  EXPECT_TRUE(contains(typoRun.out, "apiVersion: must be \"batch.volcano.sh/v1alpha1\"")) << typoRun.out;
}

// A job exported from a cluster (kubectl get -o yaml) carries its status; creating it again starts
// from Pending, because the API server drops the status of an object with a status subresource.
TEST(Cli, AJobsStatusIsDroppedWithANoteAndTheJobStartsPending) {
  auto file = writeTemp("exported.yaml", "apiVersion: scheduling.volcano.sh/v1beta1\nkind: Queue\nmetadata: {name: team}\n" +
                                             std::string(kQueuedJob) +
                                             "status:\n  state: {phase: Completed}\n  retryCount: 2\n  version: 5\n"
                                             "  runningDuration: soon\n");  // not a duration: dropped all the same
  auto r = run({"validate", file});
  EXPECT_EQ(r.rc, kOk) << r.out;
  EXPECT_NE(r.out.find(file + ":15:3: note: status is dropped: the API server ignores it on create, so the job "
                              "starts in phase Pending as on a cluster\n"),
            std::string::npos)
      << r.out;
  auto script = writeTemp("exported-script.yaml", "until: 1s\n");
  r = run({"simulate", file, "--script", script});
  EXPECT_EQ(r.rc, kOk) << r.err;
  EXPECT_EQ(r.out.rfind(R"({"t_ms":0,"event":"OutOfSync","pod":"","exitCode":0,"action":"SyncJob","delay_ms":0,)"
                        R"("phase":"Pending","retryCount":0,"version":0,)", 0),
            0u)
      << r.out;
}

TEST(Cli, ValidateFindsTheMpiMasterAfterTheSlotsFlag) {
  auto job = writeTemp("mpi-slots.yaml", R"(apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata:
  name: mpi-slots
spec:
  plugins:
    mpi: ["--slots=4", "--master=launcher"]
  tasks:
    - name: launcher
      replicas: 1
      template:
        spec:
          containers:
            - name: main
              image: busybox
    - name: worker
      replicas: 2
      template:
        spec:
          containers:
            - name: main
              image: busybox
)");
  auto r = run({"validate", job});
  EXPECT_EQ(r.rc, kOk) << r.out << r.err;
  EXPECT_NE(r.out.find(job + ": job default/mpi-slots: valid\n"), std::string::npos) << r.out;
}

TEST(Cli, ValidateRejectsFieldsTheJobSchemaDoesNotDeclare) {
  auto job = writeTemp("unknown-fields.yaml", R"(apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata:
  name: typo
spec:
  minAvalable: 2
  tasks:
    - name: worker
      replica: 2
      template:
        spec:
          containers:
            - name: main
              image: busybox
)");
  auto r = run({"validate", job});
  EXPECT_EQ(r.rc, kRejected);
  EXPECT_NE(r.out.find(job + ":6:16: spec.minAvalable: unknown field \"spec.minAvalable\"\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(job + ":9:16: spec.tasks[0].replica: unknown field \"spec.tasks[0].replica\"\n"), std::string::npos)
      << r.out;
}

TEST(Cli, ValidateReportsMalformedYamlWithPosition) {
  auto job = writeTemp("malformed.yaml", "apiVersion: batch.volcano.sh/v1alpha1\nkind: Job\nspec: [\n");
  auto r = run({"validate", job});
  EXPECT_EQ(r.rc, kInputError);
  EXPECT_EQ(r.out.rfind(job + ":", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("invalid YAML"), std::string::npos) << r.out;
}

TEST(Cli, ValidateOfAnUnreadableFileExitsFourAndStillChecksTheOthers) {
  const std::string missing = ::testing::TempDir() + "/no-such-job.yaml";
  auto r = run({"validate", missing, example("mpi-lm.yaml")});
  EXPECT_EQ(r.rc, kInputError);
  EXPECT_NE(r.out.find(missing), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(example("mpi-lm.yaml") + ": job default/lm-mpi-job: valid\n"), std::string::npos) << r.out;
}

TEST(Cli, RenderRejectsBadOutputFormat) {
  auto r = run({"render", example("mpi-lm.yaml"), "-o", "xml"});
  EXPECT_EQ(r.rc, kUsage);
  EXPECT_NE(r.err.find("-o must be yaml or json"), std::string::npos);
}

// Render lists the pods of a task with dependsOn too, but notes on stderr what Volcano waits for
// before it creates them (spec §6.4): each dependency's minAvailable pods ready; a dependency
// whose minAvailable is 0 is ready from the start. The listed objects are unchanged.
TEST(Cli, RenderNotesWhatATaskWithDependsOnWaitsFor) {
  const std::string job = writeTemp("/depends-on.yaml", R"(apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: staged}
spec:
  minAvailable: 1
  tasks:
    - {name: db, replicas: 2, template: {spec: {containers: [{name: c, image: busybox}]}}}
    - {name: cache, replicas: 1, minAvailable: 0, template: {spec: {containers: [{name: c, image: busybox}]}}}
    - name: app
      replicas: 1
      dependsOn: {name: [db, cache], iteration: any}
      template: {spec: {containers: [{name: c, image: busybox}]}}
    - name: cli
      replicas: 1
      dependsOn: {name: [app]}
      template: {spec: {containers: [{name: c, image: busybox}]}}
    - name: warm
      replicas: 1
      dependsOn: {name: [cache]}
      template: {spec: {containers: [{name: c, image: busybox}]}}
)");
  auto r = run({"render", job, "-o", "json"});
  ASSERT_EQ(r.rc, kOk) << r.err;
  EXPECT_EQ(r.err, job + ": note: job default/staged: the pods of task app are listed, but Volcano creates them only "
                         "once any of: task db has 2 pods Running with every container ready, or Succeeded\n" +
                       job + ": note: job default/staged: the pods of task cli are listed, but Volcano creates them only "
                         "once task app has 1 pod Running with every container ready, or Succeeded\n");
  rapidjson::Document list;
  ASSERT_FALSE(list.Parse(r.out.c_str()).HasParseError()) << r.out;
  EXPECT_EQ(list["items"].Size(), 2u + 6u);  // Job, PodGroup and the six pods of the five tasks
}

// A job volume without a claim name gets the name the controller's createJobIOIfNotExist gives it
// (`<job>-pvc-<12>`, generatedClaimName): in the rendered job's spec, in every pod's volume and on
// the PVC the job creates from its volumeClaim. A named claim must exist: no PVC is rendered for it.
// §5.2 step 2: a job of a queue with extendClusters is annotated job-forwarding=true; its PodGroup
// copies the job's annotations and its pods carry the annotation and the label (§6.1).
TEST(Cli, RenderMarksAJobOfAQueueWithExtendClustersForForwarding) {
  const std::string job = writeTemp("/forwarded.yaml", R"(apiVersion: scheduling.volcano.sh/v1beta1
kind: Queue
metadata: {name: burst}
spec: {extendClusters: [{name: cloud, weight: 1}]}
---
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: fwd}
spec:
  queue: burst
  tasks:
    - {name: w, replicas: 1, template: {spec: {containers: [{name: c, image: busybox}]}}}
)");
  auto r = run({"render", job, "-o", "json"});
  ASSERT_EQ(r.rc, kOk) << r.err;
  EXPECT_NE(r.err.find("queue \"burst\" (Open, parent root, extendClusters: jobs forwarded) declared"),
            std::string::npos) << r.err;
  rapidjson::Document list;
  ASSERT_FALSE(list.Parse(r.out.c_str()).HasParseError()) << r.out;
  const auto& items = list["items"];
  std::map<std::string, const rapidjson::Value*> byKind;
  for (const auto& item : items.GetArray()) byKind[item["kind"].GetString()] = &item;
  ASSERT_TRUE(byKind.count("Job") && byKind.count("PodGroup") && byKind.count("Pod")) << r.out;
  const char* key = "volcano.sh/job-forwarding";
  EXPECT_STREQ((*byKind["Job"])["metadata"]["annotations"][key].GetString(), "true");
  EXPECT_STREQ((*byKind["PodGroup"])["metadata"]["annotations"][key].GetString(), "true");
  EXPECT_STREQ((*byKind["Pod"])["metadata"]["annotations"][key].GetString(), "true");
  EXPECT_STREQ((*byKind["Pod"])["metadata"]["labels"][key].GetString(), "true");

  auto plain = run({"render", writeTemp("/not-forwarded.yaml", R"(apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: plain}
spec:
  tasks:
    - {name: w, replicas: 1, template: {spec: {containers: [{name: c, image: busybox}]}}}
)"), "-o", "json"});
  ASSERT_EQ(plain.rc, kOk) << plain.err;
  EXPECT_EQ(plain.out.find(key), std::string::npos);
}

TEST(Cli, RenderCreatesAClaimForAnUnnamedVolumeClaimAsTheControllerDoes) {
  const std::string job = writeTemp("/unnamed-claim.yaml", R"(apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: claims, namespace: team-a}
spec:
  minAvailable: 1
  volumes:
    - mountPath: /data
      volumeClaim: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
    - mountPath: /shared
      volumeClaimName: shared-results
  tasks:
    - {name: w, replicas: 2, template: {spec: {containers: [{name: c, image: busybox}]}}}
)");
  auto r = run({"render", job, "-o", "json"});
  ASSERT_EQ(r.rc, kOk) << r.err;
  Job named;
  named.metadata.name = "claims";
  named.metadata.uid = stableUid("team-a", "claims");
  const std::string claim = generatedClaimName(named, 0);
  EXPECT_EQ(claim.rfind("claims-pvc-", 0), 0u);
  rapidjson::Document list;
  ASSERT_FALSE(list.Parse(r.out.c_str()).HasParseError()) << r.out;
  const auto& items = list["items"];
  ASSERT_GE(items.Size(), 3u);
  EXPECT_EQ(std::string(items[0]["spec"]["volumes"][0]["volumeClaimName"].GetString()), claim);
  EXPECT_EQ(std::string(items[2]["kind"].GetString()), "PodGroup");  // one PVC only, before it
  rapidjson::StringBuffer pvc;
  rapidjson::Writer<rapidjson::StringBuffer> writer(pvc);
  items[1].Accept(writer);
  EXPECT_EQ(std::string(pvc.GetString()),
            "{\"apiVersion\":\"v1\",\"kind\":\"PersistentVolumeClaim\",\"metadata\":{\"name\":\"" + claim +
                "\",\"namespace\":\"team-a\",\"ownerReferences\":[{\"apiVersion\":\"batch.volcano.sh/v1alpha1\","
                "\"kind\":\"Job\",\"name\":\"claims\",\"uid\":\"" + named.metadata.uid +
                "\",\"controller\":true,\"blockOwnerDeletion\":true}]},\"spec\":{\"accessModes\":[\"ReadWriteOnce\"],"
                "\"resources\":{\"requests\":{\"storage\":\"1Gi\"}}}}");
  size_t podsNamingTheClaim = 0;
  for (const auto& item : items.GetArray())
    if (std::string(item["kind"].GetString()) == "Pod")
      for (const auto& v : item["spec"]["volumes"].GetArray())
        if (v.HasMember("persistentVolumeClaim") && claim == v["persistentVolumeClaim"]["claimName"].GetString())
          ++podsNamingTheClaim;
  EXPECT_EQ(podsNamingTheClaim, 2u);
}

}  // namespace
}  // namespace jobhost::cli
