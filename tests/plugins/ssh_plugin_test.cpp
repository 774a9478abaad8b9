// Tests of the ssh plugin's real .so: the `<job>-ssh` Secret (PKCS#1 PEM key, OpenSSH public line
// checked with OpenSSL, config text byte for byte), user keys, the pod volume and mounts, hooks.
#include <gtest/gtest.h>
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <openssl/pem.h>

#include <memory>

#include <jobhost/testing/testing.h>

namespace jobhost::testing {
namespace {

using Strings = std::vector<std::string>;

TaskSpec fixedHostTask() {
  TaskSpec t = task("fixed", 2);
  t.template_.spec.hostname = "fixed-host";
  t.template_.spec.subdomain = "custom";
  return t;
}

std::string configFor(int port) {
  const std::string p = "  Port " + std::to_string(port) + "\n";
  return "StrictHostKeyChecking no\nUserKnownHostsFile /dev/null\n"
         "Host demo-ps-main-0\n  HostName demo-ps-main-0.demo\n" + p +
         "Host demo-ps-main-1\n  HostName demo-ps-main-1.demo\n" + p +
         "Host fixed-host\n  HostName fixed-host.custom\n" + p;
}

// Reads one RFC 4251 string/mpint field from an ssh wire blob.
std::string readField(const std::string& blob, size_t& at) {
  if (at + 4 > blob.size()) return {};
  size_t n = 0;
  for (int i = 0; i < 4; ++i) n = (n << 8) | static_cast<unsigned char>(blob[at + i]);
  at += 4;
  std::string out = blob.substr(at, n);
  at += n;
  return out;
}

// Checks that `publicLine` is "ssh-rsa <base64>\n" for the RSA-2048 key in `pem` (PKCS#1).
void expectMatchingRsaKeyPair(const std::string& pem, const std::string& publicLine) {
  EXPECT_EQ(pem.rfind("-----BEGIN RSA PRIVATE KEY-----\n", 0), 0u);
  EXPECT_TRUE(pem.size() > 30 && pem.substr(pem.size() - 30) == "-----END RSA PRIVATE KEY-----\n");
  std::unique_ptr<BIO, decltype(&BIO_free)> bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())),
                                                &BIO_free);
  std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key(
      PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr), &EVP_PKEY_free);
  ASSERT_TRUE(key);
  EXPECT_EQ(EVP_PKEY_get_base_id(key.get()), EVP_PKEY_RSA);
  EXPECT_EQ(EVP_PKEY_get_bits(key.get()), 2048);

  ASSERT_EQ(publicLine.rfind("ssh-rsa ", 0), 0u);
  ASSERT_EQ(publicLine.back(), '\n');
  const std::string b64 = publicLine.substr(8, publicLine.size() - 9);
  EXPECT_EQ(b64.find_first_of(" \n"), std::string::npos);
  std::string blob(b64.size(), '\0');
  const int decoded = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(blob.data()),
                                      reinterpret_cast<const unsigned char*>(b64.data()),
                                      static_cast<int>(b64.size()));
  ASSERT_GT(decoded, 0);
  const size_t padding = b64.size() - b64.find_last_not_of('=') - 1;
  blob.resize(static_cast<size_t>(decoded) - padding);
  size_t at = 0;
  EXPECT_EQ(readField(blob, at), "ssh-rsa");
  const std::string e = readField(blob, at);
  const std::string n = readField(blob, at);
  EXPECT_EQ(at, blob.size());
  ASSERT_FALSE(n.empty());
  EXPECT_EQ(static_cast<unsigned char>(n[0]), 0u) << "a 2048-bit modulus has its top bit set";

  BIGNUM* wantN = nullptr;
  BIGNUM* wantE = nullptr;
  ASSERT_EQ(EVP_PKEY_get_bn_param(key.get(), OSSL_PKEY_PARAM_RSA_N, &wantN), 1);
  ASSERT_EQ(EVP_PKEY_get_bn_param(key.get(), OSSL_PKEY_PARAM_RSA_E, &wantE), 1);
  BIGNUM* gotN = BN_bin2bn(reinterpret_cast<const unsigned char*>(n.data()), static_cast<int>(n.size()), nullptr);
  BIGNUM* gotE = BN_bin2bn(reinterpret_cast<const unsigned char*>(e.data()), static_cast<int>(e.size()), nullptr);
  EXPECT_EQ(BN_cmp(gotN, wantN), 0);
  EXPECT_EQ(BN_cmp(gotE, wantE), 0);
  for (BIGNUM* b : {wantN, wantE, gotN, gotE}) BN_free(b);
}

class SshPluginTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(h_.ok()) << h_.loadError();
    plugin_ = &h_.plugin("ssh");
    job_.spec.tasks[0].template_.spec.initContainers = {container("init")};
  }
  JobHooksPlugin& hooks() { return *plugin_->jobHooks(); }
  Secret buildSecret(const PluginArgs& args) {
    Components out;
    EXPECT_TRUE(plugin_->componentBuild()->build(info_, args, out));
    EXPECT_EQ(out.secrets.size(), 1u);
    EXPECT_TRUE(out.configMaps.empty() && out.services.empty() && out.networkPolicies.empty());
    return out.secrets.empty() ? Secret{} : out.secrets[0];
  }

  Harness h_{{shipped("ssh")}};
  PluginInstance* plugin_ = nullptr;
  Job job_ = job("demo", {task("ps-main", 2, {container("main"), container("sidecar")}), fixedHostTask(),
                          task("idle", 0)},
                 {{"ssh", {}}});
  RuntimeInfo info_ = runtimeInfo(job_);
  FakeResourceClient client_;
};

TEST_F(SshPluginTest, ReportsItsPoints) {
  EXPECT_EQ(h_.capabilities("ssh"), kValidation | kComponentBuild | kJobHooks);
}

TEST_F(SshPluginTest, BuildsSecretWithGeneratedRsaKeysAndConfig) {
  const Secret s = buildSecret({});
  EXPECT_EQ(s.metadata.name, "demo-ssh");
  EXPECT_EQ(s.metadata.namespace_, "team-a");
  EXPECT_EQ(s.metadata.ownerReferences,
            (std::vector<OwnerReference>{{"batch.volcano.sh/v1alpha1", "Job", "demo", "uid-1", true, true}}));
  EXPECT_EQ(s.type, "Opaque");
  Strings keys;
  for (const auto& [k, v] : s.data) keys.push_back(k);
  EXPECT_EQ(keys, (Strings{"authorized_keys", "config", "id_rsa", "id_rsa.pub"}));
  EXPECT_EQ(s.data.at("config"), configFor(22));
  EXPECT_EQ(s.data.at("authorized_keys"), s.data.at("id_rsa.pub"));
  expectMatchingRsaKeyPair(s.data.at("id_rsa"), s.data.at("id_rsa.pub"));
}

TEST_F(SshPluginTest, EveryBuildGeneratesAFreshKey) {
  EXPECT_NE(buildSecret({}).data.at("id_rsa"), buildSecret({}).data.at("id_rsa"));
}

TEST_F(SshPluginTest, UserKeysAreUsedVerbatim) {
  const Secret s = buildSecret({"--ssh-private-key=PRIVATE\\nKEY", "--ssh-public-key", "ssh-rsa AAAA user"});
  EXPECT_EQ(s.data.at("id_rsa"), "PRIVATE\\nKEY");
  EXPECT_EQ(s.data.at("id_rsa.pub"), "ssh-rsa AAAA user");
  EXPECT_EQ(s.data.at("authorized_keys"), "ssh-rsa AAAA user");
  EXPECT_EQ(s.data.at("config"), configFor(22));
}

TEST_F(SshPluginTest, PortFlagGoesIntoConfigAndOutOfRangeFallsBackTo22) {
  EXPECT_EQ(buildSecret({"-ssh-port=2222"}).data.at("config"), configFor(2222));
  EXPECT_EQ(buildSecret({"--ssh-port", "70000"}).data.at("config"), configFor(22));
  EXPECT_EQ(buildSecret({"--ssh-port=0"}).data.at("config"), configFor(22));
}

TEST_F(SshPluginTest, PodGetsSecretVolumeMountedInEveryContainer) {
  Pod p = pod(job_, "ps-main", 1);
  FakeJobContext ctx(job_, info_, client_, {});
  ASSERT_TRUE(hooks().onPodCreate(ctx, p));
  ASSERT_EQ(p.spec.volumes.size(), 1u);
  const Volume& v = p.spec.volumes[0];
  EXPECT_EQ(v.name, "demo-ssh");
  ASSERT_TRUE(v.secret);
  EXPECT_EQ(v.secret->secretName, "demo-ssh");
  EXPECT_EQ(v.secret->defaultMode, std::optional<int32_t>(0600));
  EXPECT_EQ(v.secret->items, (std::vector<KeyToPath>{{"id_rsa", ".ssh/id_rsa", std::nullopt},
                                                     {"id_rsa.pub", ".ssh/id_rsa.pub", std::nullopt},
                                                     {"authorized_keys", ".ssh/authorized_keys", std::nullopt},
                                                     {"config", ".ssh/config", std::nullopt}}));
  for (const auto* c : {&p.spec.containers[0], &p.spec.containers[1], &p.spec.initContainers[0]}) {
    ASSERT_EQ(c->volumeMounts.size(), 1u) << c->name;
    EXPECT_EQ(c->volumeMounts[0].name, "demo-ssh");
    EXPECT_EQ(c->volumeMounts[0].mountPath, "/root/.ssh");
    EXPECT_EQ(c->volumeMounts[0].subPath, ".ssh");
  }
  const Pod once = p;
  ASSERT_TRUE(hooks().onPodCreate(ctx, p));
  EXPECT_EQ(p, once);
}

TEST_F(SshPluginTest, NonRootKeyPathUsesMode0644) {
  Pod p = pod(job_, "fixed", 0);
  FakeJobContext ctx(job_, info_, client_, {"--ssh-key-file-path=/home/user/.ssh"});
  ASSERT_TRUE(hooks().onPodCreate(ctx, p));
  EXPECT_EQ(p.spec.volumes[0].secret->defaultMode, std::optional<int32_t>(0644));
  EXPECT_EQ(p.spec.containers[0].volumeMounts[0].mountPath, "/home/user/.ssh");
}

TEST_F(SshPluginTest, JobAddCreatesTheBuiltSecretOnce) {
  const Secret built = buildSecret({});
  Components components;
  components.secrets.push_back(built);
  FakeJobContext ctx(job_, info_, client_, {}, components);
  ASSERT_TRUE(hooks().onJobAdd(ctx));
  ASSERT_TRUE(hooks().onJobAdd(ctx));
  EXPECT_EQ(client_.calls, Strings{"apply Secret demo-ssh"});
  EXPECT_EQ(client_.secrets.at("demo-ssh"), built);
  EXPECT_EQ(job_.status.controlledResources, (std::map<std::string, std::string>{{"plugin-ssh", "ssh"}}));
}

TEST_F(SshPluginTest, JobAddWithoutBuildOutputGeneratesTheSecret) {
  FakeJobContext ctx(job_, info_, client_, {"--ssh-port=2022"});
  ASSERT_TRUE(hooks().onJobAdd(ctx));
  EXPECT_EQ(client_.calls, Strings{"apply Secret demo-ssh"});
  const Secret& s = client_.secrets.at("demo-ssh");
  EXPECT_EQ(s.data.at("config"), configFor(2022));
  expectMatchingRsaKeyPair(s.data.at("id_rsa"), s.data.at("authorized_keys"));
}

// Volcano's OnJobAdd writes `config` from the job it is given. ComponentBuild ran when the job was
// admitted; a job scaled since (then restarted: OnJobDelete, OnJobAdd) must list its new hosts.
// The keys stay the built ones, so render and run agree on them.
TEST_F(SshPluginTest, JobAddWritesTheConfigOfTheJobAsItIsNowWithTheBuiltKeys) {
  const Secret built = buildSecret({});
  Components components;
  components.secrets.push_back(built);
  job_.spec.tasks[0].replicas = 1;
  FakeJobContext ctx(job_, info_, client_, {}, components);
  ASSERT_TRUE(hooks().onJobAdd(ctx));
  const Secret& s = client_.secrets.at("demo-ssh");
  EXPECT_EQ(s.data.at("config"),
            "StrictHostKeyChecking no\nUserKnownHostsFile /dev/null\n"
            "Host demo-ps-main-0\n  HostName demo-ps-main-0.demo\n  Port 22\n"
            "Host fixed-host\n  HostName fixed-host.custom\n  Port 22\n");
  for (const char* key : {"id_rsa", "id_rsa.pub", "authorized_keys"}) EXPECT_EQ(s.data.at(key), built.data.at(key)) << key;
  EXPECT_EQ(s.metadata, built.metadata);
}

TEST_F(SshPluginTest, ExistingSecretIsUpdatedOnlyWhenConfigDiffers) {
  Secret existing = buildSecret({});
  client_.secrets["demo-ssh"] = existing;
  {
    Job j = job_;
    FakeJobContext ctx(j, info_, client_, {});
    ASSERT_TRUE(hooks().onJobAdd(ctx));
    EXPECT_TRUE(client_.calls.empty());
    EXPECT_EQ(client_.secrets.at("demo-ssh"), existing);
  }
  FakeJobContext ctx(job_, info_, client_, {"--ssh-port=2200"});
  ASSERT_TRUE(hooks().onJobAdd(ctx));
  EXPECT_EQ(client_.calls, Strings{"apply Secret demo-ssh"});
  EXPECT_EQ(client_.secrets.at("demo-ssh").data.at("config"), configFor(2200));
}

TEST_F(SshPluginTest, JobUpdateDoesNothingAndJobDeleteRemovesTheSecretOnce) {
  FakeJobContext ctx(job_, info_, client_, {});
  ASSERT_TRUE(hooks().onJobAdd(ctx));
  client_.calls.clear();
  ASSERT_TRUE(hooks().onJobUpdate(ctx));
  EXPECT_TRUE(client_.calls.empty());
  ASSERT_TRUE(hooks().onJobDelete(ctx));
  ASSERT_TRUE(hooks().onJobDelete(ctx));
  EXPECT_EQ(client_.calls, Strings{"remove Secret demo-ssh"});
  EXPECT_TRUE(client_.secrets.empty());
  EXPECT_TRUE(job_.status.controlledResources.empty());
}

TEST_F(SshPluginTest, BadFlagsAreAdmissionWarningsNamingPluginAndFlag) {
  ValidationResult out;
  ASSERT_TRUE(plugin_->validation()->validate(job_, nullptr, {"--ssh-port=abc"}, out));
  EXPECT_TRUE(out.errors.empty());
  ASSERT_EQ(out.warnings.size(), 1u);
  EXPECT_EQ(out.warnings[0].substr(0, out.warnings[0].find(" (ignored")),
            "spec.plugins.ssh: plugin ssh: invalid value \"abc\" for flag -ssh-port: parse error");

  ValidationResult missing;
  ASSERT_TRUE(plugin_->validation()->validate(job_, nullptr, {"--ssh-key-file-path"}, missing));
  ASSERT_EQ(missing.warnings.size(), 1u);
  EXPECT_EQ(missing.warnings[0].substr(0, missing.warnings[0].find(" (ignored")),
            "spec.plugins.ssh: plugin ssh: flag needs an argument: -ssh-key-file-path");

  ValidationResult good;
  ASSERT_TRUE(plugin_->validation()->validate(
      job_, nullptr, {"--ssh-key-file-path", "/home/u/.ssh", "-ssh-port=99999"}, good));
  EXPECT_TRUE(good.errors.empty());
  EXPECT_TRUE(good.warnings.empty());
}

// The plugin mounts its Secret at the key path in every container, replacing a template mount at
// that path (Volcano appends a second one, which the API server refuses): a warning names it.
TEST_F(SshPluginTest, ATemplateMountAtTheKeyPathIsAnAdmissionWarning) {
  VolumeMount own;
  own.name = "keys";
  own.mountPath = "/root/.ssh";
  job_.spec.tasks[0].template_.spec.containers[1].volumeMounts.push_back(own);
  ValidationResult out;
  ASSERT_TRUE(plugin_->validation()->validate(job_, nullptr, {}, out));
  EXPECT_TRUE(out.errors.empty());
  EXPECT_EQ(out.warnings, std::vector<std::string>{
                              "spec.tasks[0].template.spec.containers[1].volumeMounts[0]: the ssh plugin mounts its "
                              "own volume at /root/.ssh and replaces this mount (on Volcano the API server refuses the "
                              "pod, a mountPath must be unique); mount it elsewhere"});
  ValidationResult moved;  // the keys go elsewhere: the template's mount stays
  ASSERT_TRUE(plugin_->validation()->validate(job_, nullptr, {"--ssh-key-file-path=/home/u/.ssh"}, moved));
  EXPECT_TRUE(moved.warnings.empty());
}

// End to end through the production loader and the sim cluster: the Secret of a multi-task job
// (dashed names, a template hostname, a zero-replica task), every pod's volume and mounts, and the
// cleanup when the job is aborted.
TEST(SshPluginJob, SecretAndMountsOfAMultiTaskJobAndCleanupOnAbort) {
  Harness h({shipped("ssh")});
  ASSERT_TRUE(h.ok()) << h.loadError();
  ASSERT_TRUE(h.submit(R"(
apiVersion: batch.volcano.sh/v1alpha1
kind: Job
metadata: {name: demo, namespace: team-a}
spec:
  plugins: {ssh: ["--ssh-port", "2022", "--ssh-key-file-path=/home/mpi/.ssh"]}
  tasks:
    - name: ps-main
      replicas: 2
      template:
        spec:
          restartPolicy: Never
          initContainers: [{name: init, image: busybox}]
          containers: [{name: main, image: busybox}]
    - name: fixed
      replicas: 2
      template:
        spec: {hostname: fixed-host, subdomain: custom, restartPolicy: Never, containers: [{name: main, image: busybox}]}
    - name: idle
      replicas: 0
      template: {spec: {restartPolicy: Never, containers: [{name: main, image: busybox}]}}
)"));
  const Secret s = h.secret("demo-ssh");
  EXPECT_EQ(s.data.at("config"), "StrictHostKeyChecking no\nUserKnownHostsFile /dev/null\n"
                                 "Host demo-ps-main-0\n  HostName demo-ps-main-0.demo\n  Port 2022\n"
                                 "Host demo-ps-main-1\n  HostName demo-ps-main-1.demo\n  Port 2022\n"
                                 "Host fixed-host\n  HostName fixed-host.custom\n  Port 2022\n");
  expectMatchingRsaKeyPair(s.data.at("id_rsa"), s.data.at("id_rsa.pub"));
  EXPECT_EQ(s.data.at("authorized_keys"), s.data.at("id_rsa.pub"));

  EXPECT_EQ(h.podNames(), (Strings{"demo-fixed-0", "demo-fixed-1", "demo-ps-main-0", "demo-ps-main-1"}));
  for (const auto& name : h.podNames()) {
    const PodView p = h.pod(name);
    ASSERT_NE(p.volume("demo-ssh"), nullptr) << name;
    EXPECT_EQ(p.volume("demo-ssh")->secret->defaultMode, std::optional<int32_t>(0644)) << name;
    ASSERT_NE(p.mount("/home/mpi/.ssh"), nullptr) << name;
    EXPECT_EQ(p.mount("/home/mpi/.ssh")->subPath, ".ssh") << name;
  }
  const auto initMounts = h.pod("demo-ps-main-0").initContainer("init").volumeMounts;
  ASSERT_EQ(initMounts.size(), 1u);
  EXPECT_EQ(initMounts[0].mountPath, "/home/mpi/.ssh");
  EXPECT_EQ(h.job().status.controlledResources.at("plugin-ssh"), "ssh");

  h.command("AbortJob");
  h.advance(1000);
  EXPECT_EQ(h.phase(), JobPhase::Aborted);
  EXPECT_TRUE(h.resources().empty());
  EXPECT_EQ(h.job().status.controlledResources.count("plugin-ssh"), 0u);
}

}  // namespace
}  // namespace jobhost::testing
