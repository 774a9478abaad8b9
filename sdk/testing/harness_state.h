// Harness::State: what one harness owns — config, registry of proxied plugins, the job plugins,
// virtual clock, sim cluster behind a recording backend, controller and driver — in teardown order.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "host/cluster/sim/sim_driver.h"
#include "host/config/config.h"
#include "host/plugin/plugin_job_plugins.h"
#include "host/plugin/registry.h"
#include "jobhost/testing/harness.h"
#include "recording_backend.h"
#include "recording_plugin.h"

namespace jobhost::testing {

struct Harness::State {
  std::string error;  // load failure
  HostConfig config;
  std::shared_ptr<CallLog> log = std::make_shared<CallLog>();
  std::shared_ptr<Registry> registry;
  std::unique_ptr<PluginJobPlugins> jobPlugins;

  std::map<std::string, std::vector<PodScript>> scripts;
  PodScript defaultScript = runsForever();

  VirtualClock clock{0};
  std::unique_ptr<SimCluster> sim;
  std::unique_ptr<RecordingBackend> backend;
  std::unique_ptr<Controller> controller;  // declared after what it uses: destroyed first
  std::unique_ptr<SimDriver> driver;

  std::optional<Job> submitted;  // as admitted (defaulted)
  std::mutex errorsMutex;
  std::vector<std::string> syncErrors;

  /// The registered plugin named `name` (configured name or alias); throws std::out_of_range.
  const RegisteredPlugin& plugin(std::string_view name) const;
  /// Parses, defaults and admits one job; `job` receives it when parsing worked.
  Submission admit(std::string_view yaml, Job& job);
};

}  // namespace jobhost::testing
