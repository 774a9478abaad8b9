// Runs Validation plugins for admission and turns a plugin's own failure into a field error at
// spec.plugins.<name>, so one broken plugin never hides the others' findings.
#include "host/plugin/plugin_validation.h"

#include "host/plugin/plugin_call.h"

namespace jobhost {

PluginValidation validationPlugins(const Registry& registry) {
  return [&registry](const Job& job, const Job* oldJob, ValidationResult& out) {
    for (const auto& a : registry.activeAt(Point::Validation, job)) {
      Status st = callPlugin(*a.plugin, "Validation", [&] { return a.plugin->loaded.instance->validation()->validate(job, oldJob, a.args, out); });
      if (!st)
        out.errors.push_back({"spec.plugins." + a.plugin->names[0],
                              "plugin \"" + a.plugin->names[0] + "\" failed in Validation: " + st.message()});
    }
  };
}

AdmissionConfig admissionConfig(const HostConfig& config, const Registry& registry) {
  AdmissionConfig out;
  out.queues = config.queues;
  out.knownPlugin = [&registry](const std::string& name) { return registry.find(name) != nullptr; };
  out.pluginArgs = [&registry](const std::string& name, const Job& job) {  // config defaults, then the job's
    if (const RegisteredPlugin* p = registry.find(name)) return registry.argsFor(*p, job);
    auto it = job.spec.plugins.find(name);
    return it == job.spec.plugins.end() ? std::vector<std::string>{} : it->second;
  };
  out.pluginValidation = validationPlugins(registry);
  out.maxPodsPerJob = config.controller.maxPodsPerJob;
  return out;
}

}  // namespace jobhost
