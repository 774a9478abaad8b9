// RecordingPlugin: the harness's proxy around a loaded plugin instance. Forwards every
// extension-point call, records it in the call log, and can be told to throw instead (fault injection).
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "jobhost/plugin.h"

namespace jobhost::testing {

/// The shared, thread-safe call log (calls for one job come from one worker at a time, but the
/// harness reads it from the test thread).
class CallLog {
 public:
  void add(std::string call);
  std::vector<std::string> calls() const;
  void clear();

 private:
  mutable std::mutex mutex_;
  std::vector<std::string> calls_;
};

/// Wraps `inner` (keeps it, and with it its library, alive). Exposes the same points as inner.
std::shared_ptr<PluginInstance> recordingPlugin(std::string name, std::shared_ptr<PluginInstance> inner,
                                                std::shared_ptr<CallLog> log);

/// Sets the call `call` ("OnJobAdd", "Build", ...; empty clears) that the proxy made by
/// recordingPlugin throws std::runtime_error(what) for instead of forwarding. Throws
/// std::invalid_argument listing the plugin's calls when it has no call `call`.
void injectThrow(PluginInstance& proxy, std::string call, std::string what);

}  // namespace jobhost::testing
