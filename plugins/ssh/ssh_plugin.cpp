// The ssh plugin (Volcano's `ssh`): the `<job>-ssh` Secret with an RSA key pair and ssh config,
// mounted into every container. Points: Validation, ComponentBuild, JobHooks.
#include <jobhost/jobhost.h>

#include "ssh_options.h"
#include "ssh_secret.h"

namespace {
using namespace jobhost;

constexpr const char* kName = "ssh";
const volcano::Marker kMarker{kName};

// Outside Validation, use whatever parsed, like Volcano: admission already reported a bad flag.
ssh::SshOptions effectiveOptions(const PluginArgs& args) {
  ssh::SshOptions options;
  static_cast<void>(ssh::parseSshOptions(args, options));
  return options;
}

// The Secret for the job as it is now: the keys of this job's ComponentBuild output, so that render
// and run show the same keys, with `config` written from the current job (Volcano's OnJobAdd builds
// it from the job it is given, so a job scaled after the pipeline ran gets its new hosts); a fresh
// Secret when ComponentBuild did not run for the job (e.g. disabled in the config).
Status secretFor(JobContext& ctx, Secret& out) {
  const std::string name = ssh::secretName(ctx.job());
  const ssh::SshOptions options = effectiveOptions(ctx.args());
  for (const auto& s : ctx.built().secrets)
    if (s.metadata.name == name) {
      out = s;
      out.data["config"] = ssh::sshConfigText(ctx.job(), options.port);
      return Status::ok();
    }
  return ssh::buildSshSecret(ctx.job(), options, out);
}

std::string configOf(const Secret& secret) {
  const auto it = secret.data.find("config");
  return it == secret.data.end() ? std::string() : it->second;
}

class SshPlugin final : public ValidationPlugin, public ComponentBuildPlugin, public JobHooksPlugin {
 public:
  Status configure(const PluginSettings& settings) {
    ssh::SshOptions options;
    return ssh::parseSshOptions(settings.defaultArgs, options);
  }

  Status validate(const Job& job, const Job*, const PluginArgs& args, ValidationResult& out) override {
    ssh::SshOptions options;
    if (Status st = ssh::parseSshOptions(args, options); !st)
      out.warnings.push_back(ignoredFlagWarning("spec.plugins.ssh", st));
    volcano::warnReplacedMounts(job, "ssh", options.keyFilePath, out);
    return Status::ok();
  }

  Status build(const RuntimeInfo& info, const PluginArgs& args, Components& out) override {
    Secret secret;
    if (Status st = ssh::buildSshSecret(info.job, effectiveOptions(args), secret); !st) return st;
    out.secrets.push_back(std::move(secret));
    return Status::ok();
  }

  // Volcano's CreateOrUpdateSecret: create when missing; update only when `config` differs.
  Status onJobAdd(JobContext& ctx) override {
    if (kMarker.isSet(ctx)) return Status::ok();
    Secret secret;
    if (Status st = secretFor(ctx, secret); !st) return st;
    const auto existing = ctx.resources().getSecret(secret.metadata.name);
    if (!existing || configOf(*existing) != configOf(secret)) {
      Components c;
      c.secrets.push_back(std::move(secret));
      if (Status st = ctx.resources().apply(c); !st) return st;
    }
    kMarker.set(ctx);
    return Status::ok();
  }

  Status onPodCreate(JobContext& ctx, Pod& pod) override {
    const ssh::SshOptions options = effectiveOptions(ctx.args());
    upsertVolume(pod.spec.volumes, ssh::sshVolume(ctx.job(), options));
    VolumeMount mount;
    mount.name = ssh::secretName(ctx.job());
    mount.mountPath = options.keyFilePath;
    mount.subPath = ".ssh";
    for (auto* list : {&pod.spec.containers, &pod.spec.initContainers})
      for (auto& c : *list) upsertVolumeMount(c.volumeMounts, mount);
    return Status::ok();
  }

  // Secret subPath mounts do not refresh (Volcano issue #1420), so there is nothing to update.
  Status onJobUpdate(JobContext&) override { return Status::ok(); }

  Status onJobDelete(JobContext& ctx) override {
    if (!kMarker.isSet(ctx)) return Status::ok();
    if (Status st = ctx.resources().remove(ObjectKind::Secret, ssh::secretName(ctx.job())); !st) return st;
    kMarker.clear(ctx);
    return Status::ok();
  }
};

}  // namespace

JOBHOST_PLUGIN(SshPlugin, "ssh", "0.1.0")
