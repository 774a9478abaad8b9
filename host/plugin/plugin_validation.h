// The bridge from admission to Validation plugins: every active plugin runs, in config order,
// and its failures, findings and warnings are aggregated (never stopping early).
#pragma once

#include "host/admission/admission.h"
#include "host/plugin/registry.h"

namespace jobhost {

/// A PluginValidation that runs the registry's Validation plugins active for each job. A plugin
/// that fails or throws adds an error at spec.plugins.<name> naming it. The registry must outlive
/// the returned function.
PluginValidation validationPlugins(const Registry& registry);

/// Admission settings for a host: its queues, its plugin names, its Validation plugins.
AdmissionConfig admissionConfig(const HostConfig& config, const Registry& registry);

}  // namespace jobhost
