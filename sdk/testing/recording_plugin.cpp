// The recording proxy: one forwarding object per extension point, each logging "<plugin>.<Call>"
// before forwarding (or throwing, when a fault is injected for that call).
#include "recording_plugin.h"

#include <algorithm>
#include <initializer_list>
#include <stdexcept>

namespace jobhost::testing {

void CallLog::add(std::string call) {
  std::lock_guard lock(mutex_);
  calls_.push_back(std::move(call));
}

std::vector<std::string> CallLog::calls() const {
  std::lock_guard lock(mutex_);
  return calls_;
}

void CallLog::clear() {
  std::lock_guard lock(mutex_);
  calls_.clear();
}

namespace {

// The call names the log records and injectThrow takes, one per extension-point method.
constexpr const char* kValidate = "Validate";
constexpr const char* kEnforceMLPolicy = "EnforceMLPolicy";
constexpr const char* kEnforcePodGroupPolicy = "EnforcePodGroupPolicy";
constexpr const char* kIdentifyPodNetwork = "IdentifyPodNetwork";
constexpr const char* kBuild = "Build";
constexpr const char* kUpdateStatus = "UpdateStatus";
constexpr const char* kOnJobAdd = "OnJobAdd";
constexpr const char* kOnPodCreate = "OnPodCreate";
constexpr const char* kOnJobUpdate = "OnJobUpdate";
constexpr const char* kOnJobDelete = "OnJobDelete";

struct Recorder {
  std::string name;
  std::shared_ptr<CallLog> log;
  std::mutex mutex;
  std::string throwCall, throwWhat;

  void enter(const char* call, const std::string& detail = {}) {
    log->add(name + "." + call + (detail.empty() ? "" : " " + detail));
    std::lock_guard lock(mutex);
    if (throwCall == call) throw std::runtime_error(throwWhat);
  }
};

struct Validation final : ValidationPlugin {
  Recorder* r;
  ValidationPlugin* in;
  Status validate(const Job& j, const Job* o, const PluginArgs& a, ValidationResult& out) override {
    r->enter(kValidate);
    return in->validate(j, o, a, out);
  }
};
struct MLPolicy final : MLPolicyPlugin {
  Recorder* r;
  MLPolicyPlugin* in;
  Status enforceMLPolicy(RuntimeInfo& i, const PluginArgs& a) override {
    r->enter(kEnforceMLPolicy);
    return in->enforceMLPolicy(i, a);
  }
};
struct PodGroupPolicy final : PodGroupPolicyPlugin {
  Recorder* r;
  PodGroupPolicyPlugin* in;
  Status enforcePodGroupPolicy(RuntimeInfo& i, const PluginArgs& a) override {
    r->enter(kEnforcePodGroupPolicy);
    return in->enforcePodGroupPolicy(i, a);
  }
};
struct PodNetwork final : PodNetworkPlugin {
  Recorder* r;
  PodNetworkPlugin* in;
  Status identifyPodNetwork(RuntimeInfo& i, const PluginArgs& a) override {
    r->enter(kIdentifyPodNetwork);
    return in->identifyPodNetwork(i, a);
  }
};
struct ComponentBuild final : ComponentBuildPlugin {
  Recorder* r;
  ComponentBuildPlugin* in;
  Status build(const RuntimeInfo& i, const PluginArgs& a, Components& out) override {
    r->enter(kBuild);
    return in->build(i, a, out);
  }
};
struct StatusPoint final : StatusPlugin {
  Recorder* r;
  StatusPlugin* in;
  Status updateStatus(const Job& j, JobStatus& s) override {
    r->enter(kUpdateStatus);
    return in->updateStatus(j, s);
  }
};
struct JobHooks final : JobHooksPlugin {
  Recorder* r;
  JobHooksPlugin* in;
  Status onJobAdd(JobContext& c) override {
    r->enter(kOnJobAdd);
    return in->onJobAdd(c);
  }
  Status onPodCreate(JobContext& c, Pod& p) override {
    r->enter(kOnPodCreate, p.metadata.name);
    return in->onPodCreate(c, p);
  }
  Status onJobUpdate(JobContext& c) override {
    r->enter(kOnJobUpdate);
    return in->onJobUpdate(c);
  }
  Status onJobDelete(JobContext& c) override {
    r->enter(kOnJobDelete);
    return in->onJobDelete(c);
  }
};

template <class P, class I>
P* wrap(P& proxy, Recorder& r, I* inner) {
  proxy.r = &r;
  proxy.in = inner;
  return inner ? &proxy : nullptr;
}

class Proxy final : public PluginInstance {
 public:
  Proxy(std::string name, std::shared_ptr<PluginInstance> inner, std::shared_ptr<CallLog> log)
      : inner_(std::move(inner)) {
    rec_.name = std::move(name);
    rec_.log = std::move(log);
    validation_ = wrap(v_, rec_, inner_->validation());
    mlPolicy_ = wrap(ml_, rec_, inner_->mlPolicy());
    podGroupPolicy_ = wrap(pg_, rec_, inner_->podGroupPolicy());
    podNetwork_ = wrap(pn_, rec_, inner_->podNetwork());
    componentBuild_ = wrap(cb_, rec_, inner_->componentBuild());
    status_ = wrap(st_, rec_, inner_->status());
    jobHooks_ = wrap(jh_, rec_, inner_->jobHooks());
  }
  ~Proxy() = default;

  ValidationPlugin* validation() noexcept override { return validation_; }
  MLPolicyPlugin* mlPolicy() noexcept override { return mlPolicy_; }
  PodGroupPolicyPlugin* podGroupPolicy() noexcept override { return podGroupPolicy_; }
  PodNetworkPlugin* podNetwork() noexcept override { return podNetwork_; }
  ComponentBuildPlugin* componentBuild() noexcept override { return componentBuild_; }
  StatusPlugin* status() noexcept override { return status_; }
  JobHooksPlugin* jobHooks() noexcept override { return jobHooks_; }

  /// The calls this proxy forwards: those of the points the plugin implements.
  std::vector<std::string> calls() const {
    std::vector<std::string> out;
    auto add = [&out](const void* point, std::initializer_list<const char*> names) {
      if (point) out.insert(out.end(), names.begin(), names.end());
    };
    add(validation_, {kValidate});
    add(mlPolicy_, {kEnforceMLPolicy});
    add(podGroupPolicy_, {kEnforcePodGroupPolicy});
    add(podNetwork_, {kIdentifyPodNetwork});
    add(componentBuild_, {kBuild});
    add(status_, {kUpdateStatus});
    add(jobHooks_, {kOnJobAdd, kOnPodCreate, kOnJobUpdate, kOnJobDelete});
    return out;
  }

  void setThrow(std::string call, std::string what) {
    const std::vector<std::string> known = calls();
    if (!call.empty() && std::find(known.begin(), known.end(), call) == known.end()) {
      std::string list;
      for (const auto& c : known) list += (list.empty() ? "" : ", ") + c;
      throw std::invalid_argument("jobhost::testing: injectThrow(\"" + rec_.name + "\", \"" + call + "\"): plugin \"" +
                                  rec_.name + "\" has no such call (its calls: " + list + "; \"\" clears)");
    }
    std::lock_guard lock(rec_.mutex);
    rec_.throwCall = std::move(call);
    rec_.throwWhat = std::move(what);
  }

 private:
  std::shared_ptr<PluginInstance> inner_;
  Recorder rec_;
  Validation v_;
  MLPolicy ml_;
  PodGroupPolicy pg_;
  PodNetwork pn_;
  ComponentBuild cb_;
  StatusPoint st_;
  JobHooks jh_;
  ValidationPlugin* validation_;
  MLPolicyPlugin* mlPolicy_;
  PodGroupPolicyPlugin* podGroupPolicy_;
  PodNetworkPlugin* podNetwork_;
  ComponentBuildPlugin* componentBuild_;
  StatusPlugin* status_;
  JobHooksPlugin* jobHooks_;
};

}  // namespace

std::shared_ptr<PluginInstance> recordingPlugin(std::string name, std::shared_ptr<PluginInstance> inner,
                                                std::shared_ptr<CallLog> log) {
  auto* proxy = new Proxy(std::move(name), std::move(inner), std::move(log));
  return std::shared_ptr<PluginInstance>(proxy, [proxy](PluginInstance*) { delete proxy; });
}

void injectThrow(PluginInstance& proxy, std::string call, std::string what) {
  static_cast<Proxy&>(proxy).setThrow(std::move(call), std::move(what));
}

}  // namespace jobhost::testing
