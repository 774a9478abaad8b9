// The local backend's preflight: containers without a command and mounted volumes of types the
// backend does not provide are reported at their fields before any pod starts.
#include <gtest/gtest.h>

#include "host/cluster/local/preflight.h"

namespace jobhost::local {
namespace {

Job jobWith(PodSpec spec) {
  Job job;
  job.spec.tasks.resize(2);
  job.spec.tasks[1].template_.spec = std::move(spec);
  return job;
}

Container container(const std::string& name, std::vector<std::string> command, std::vector<std::string> args = {}) {
  Container c;
  c.name = name;
  c.command = std::move(command);
  c.args = std::move(args);
  return c;
}

TEST(Preflight, ContainersNeedACommandOrArgs) {
  PodSpec spec;
  spec.initContainers = {container("init", {})};
  spec.containers = {container("main", {"sh", "-c", "true"}), container("args-only", {}, {"python3", "x.py"}),
                     container("nginx", {})};
  const auto errors = preflight(jobWith(spec));
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[0].field, "spec.tasks[1].template.spec.initContainers[0].command");
  EXPECT_EQ(errors[1].field, "spec.tasks[1].template.spec.containers[2].command");
  EXPECT_EQ(errors[1].message,
            "must be set to run on the local backend, which runs this machine's programs and cannot use the image's "
            "entrypoint");
}

TEST(Preflight, MountedVolumesMustBeOfATypeTheBackendProvides) {
  PodSpec spec;
  Container main = container("main", {"true"});
  main.volumeMounts = {{"data", "/data", "", false, {}}, {"host", "/host", "", false, {}},
                       {"scratch", "/scratch", "", false, {}}};
  spec.containers = {main};
  Volume nfs, host, scratch, unused;
  nfs.name = "data";
  nfs.unknown = {{"nfs", R"({"server":"fs","path":"/exports"})"}};
  host.name = "host";
  host.unknown = {{"hostPath", R"({"path":"/tmp"})"}};
  scratch.name = "scratch";
  scratch.emptyDir = EmptyDirVolumeSource{};
  unused.name = "unused";
  unused.unknown = {{"downwardAPI", "{}"}};
  spec.volumes = {scratch, nfs, unused, host};
  const auto errors = preflight(jobWith(spec));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].field, "spec.tasks[1].template.spec.volumes[1]");
  EXPECT_EQ(errors[0].message,
            "volume type nfs is not supported by the local backend (it provides configMap, secret, emptyDir, "
            "persistentVolumeClaim and hostPath): use a hostPath or an emptyDir");
}

}  // namespace
}  // namespace jobhost::local
