// The ray plugin (Volcano's `ray`, spec §7.8): `ray start` commands for the head and worker
// containers, the head's ports, and the `<job>-head-svc` Service. Points: Validation, JobHooks.
#include <jobhost/jobhost.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace {
using namespace jobhost;

constexpr const char* kName = "ray";
const volcano::Marker kMarker{kName};

struct Options {
  std::string head = "head";
  std::string headContainer = "head";
  std::string worker = "worker";
  std::string workerContainer = "worker";
  int64_t port = 6379;
  int64_t dashboardPort = 8265;
  int64_t clientPort = 10001;
};

Status parseOptions(const PluginArgs& args, Options& out) {
  FlagSet flags("plugin ray");
  flags.addString("head", &out.head);
  flags.addString("headContainer", &out.headContainer);
  flags.addString("worker", &out.worker);
  flags.addString("workerContainer", &out.workerContainer);
  flags.addInt("port", &out.port);
  flags.addInt("dashboardPort", &out.dashboardPort);
  flags.addInt("clientPort", &out.clientPort);
  return flags.parse(args);
}

// Outside Validation, whatever parsed, like Volcano: admission already reported a bad flag.
Options effectiveOptions(const PluginArgs& args) {
  Options options;
  static_cast<void>(parseOptions(args, options));
  return options;
}

std::string headServiceName(const Job& job) { return job.metadata.name + "-head-svc"; }

struct NamedPort {
  const char* name;
  int32_t number;
};

// The head's three named ports, in Volcano's order; the numbers are Go's int32 conversions of the flags.
std::array<NamedPort, 3> headPorts(const Options& o) {
  return {{{"gcs", static_cast<int32_t>(o.port)},
           {"dashboard", static_cast<int32_t>(o.dashboardPort)},
           {"client-server", static_cast<int32_t>(o.clientPort)}}};
}

// Each head port is appended only when no port the container had before has its number (Volcano
// checks all three first, so two flags of one number still add two ports).
void openHeadPorts(Container& c, const Options& o) {
  const size_t before = c.ports.size();
  for (const NamedPort& wanted : headPorts(o)) {
    const auto end = c.ports.begin() + static_cast<std::ptrdiff_t>(before);
    if (std::any_of(c.ports.begin(), end, [&](const ContainerPort& p) { return p.containerPort == wanted.number; }))
      continue;
    ContainerPort& port = c.ports.emplace_back();
    port.name = wanted.name;
    port.containerPort = wanted.number;
  }
}

std::vector<std::string> shell(std::string script) { return {"sh", "-c", std::move(script)}; }

// A ClusterIP Service selecting the head task's pods, its ports targeting the head's named ports.
Service headService(const Job& job, const Options& o) {
  Service service;
  service.metadata = volcano::ownedBy(job, headServiceName(job));
  service.spec.type = "ClusterIP";
  service.spec.selector = {{std::string(keys::JobName), job.metadata.name},
                           {std::string(keys::JobNamespace), job.metadata.namespace_},
                           {std::string(keys::TaskSpec), o.head}};
  for (const NamedPort& port : headPorts(o))
    service.spec.ports.push_back(ServicePort{port.name, "TCP", port.number, port.name});
  return service;
}

class RayPlugin final : public ValidationPlugin, public JobHooksPlugin {
 public:
  Status configure(const PluginSettings& settings) {
    Options options;
    return parseOptions(settings.defaultArgs, options);
  }

  Status validate(const Job&, const Job*, const PluginArgs& args, ValidationResult& out) override {
    Options options;
    if (Status st = parseOptions(args, options); !st) out.warnings.push_back(ignoredFlagWarning("spec.plugins.ray", st));
    return Status::ok();
  }

  Status onJobAdd(JobContext& ctx) override {
    if (kMarker.isSet(ctx)) return Status::ok();
    const Job& job = ctx.job();
    ResourceClient& client = ctx.resources();
    if (!client.exists(ObjectKind::Service, headServiceName(job))) {
      Components objects;
      objects.services.push_back(headService(job, effectiveOptions(ctx.args())));
      if (Status st = client.apply(objects); !st) return st;
    }
    kMarker.set(ctx);
    return Status::ok();
  }

  // Every pod of a job without the head task is refused; the head container starts the head, the
  // worker container joins it at pod 0 of the head task. Both rules apply when the names collide.
  Status onPodCreate(JobContext& ctx, Pod& pod) override {
    const Job& job = ctx.job();
    const Options o = effectiveOptions(ctx.args());
    const TaskSpec* head = job.findTask(o.head);
    if (head == nullptr) return Status::error("job " + job.metadata.name + " doesn't have head task " + o.head);
    const std::string task = volcano::taskKey(pod);
    for (auto& c : pod.spec.containers) {
      if (task == o.head && c.name == o.headContainer) {
        openHeadPorts(c, o);
        c.command = shell("ray start --head --block --dashboard-host=0.0.0.0 --port=" + std::to_string(o.port) +
                          " --dashboard-port=" + std::to_string(o.dashboardPort) +
                          " --ray-client-server-port=" + std::to_string(o.clientPort));
      }
      if (task == o.worker && c.name == o.workerContainer)
        c.command = shell("ray start --block --address=" + volcano::domainName(job, *head, 0) + ":" +
                          std::to_string(o.port));
    }
    return Status::ok();
  }

  Status onJobUpdate(JobContext&) override { return Status::ok(); }

  Status onJobDelete(JobContext& ctx) override {
    if (!kMarker.isSet(ctx)) return Status::ok();
    if (Status st = ctx.resources().remove(ObjectKind::Service, headServiceName(ctx.job())); !st) return st;
    kMarker.clear(ctx);
    return Status::ok();
  }
};

}  // namespace

JOBHOST_PLUGIN(RayPlugin, "ray", "0.1.0")
