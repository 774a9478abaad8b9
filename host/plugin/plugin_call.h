// callPlugin: the host's second line of defence around every call into plugin code. Exceptions
// become error Statuses (text copied, never kept); a deadline abandons a hung call (call_deadline.h).
#pragma once

#include <exception>
#include <string>
#include <type_traits>

#include "host/plugin/call_deadline.h"
#include "host/plugin/registry.h"
#include "jobhost/status.h"

namespace jobhost {

template <class F>
Status catchingPlugin(F& call) noexcept {
  try {
    return call();
  } catch (const std::exception& e) {
    return Status::error(std::string("threw an exception: ") + e.what());
  } catch (...) {
    return Status::error("threw a non-standard exception");
  }
}

template <class F>
Status invokeErased(void* f) {
  try {
    return (*static_cast<std::remove_reference_t<F>*>(f))();
  } catch (const std::exception& e) {  // host code around the calls of a batch, e.g. bad_alloc
    return Status::error(e.what());
  }
}

/// Calls into `plugin` at `where` (a point or hook name); a quarantined plugin is not called. With a
/// callTimeout the call runs on the caller's guard thread (one handoff), inline when already there
/// unless `isolated`: a call whose hang must not abandon the guarded batch around it then runs on a
/// guard thread of its own.
template <class F>
Status callPlugin(const RegisteredPlugin& plugin, const char* where, F&& call, bool isolated = false) noexcept {
  if (auto refused = deadline::refuseQuarantined(plugin, where)) return *refused;
  if (plugin.entry.callTimeout.ms <= 0) return catchingPlugin(call);
  auto watched = [&] {
    deadline::begin(plugin, where);
    Status st = catchingPlugin(call);
    deadline::end();
    return st;
  };
  if (deadline::onGuardThread() && !isolated) return watched();
  return deadline::runGuarded(&invokeErased<decltype(watched)>, &watched, false);
}

/// Runs `batch`, which makes several callPlugin calls, with one guard-thread handoff instead of
/// one per call when `anyDeadline` (some plugin it calls has a callTimeout): the calls then run
/// inline on the guard thread, each under its own deadline, and a hang ends the batch with
/// `plugin "NAME" failed in WHERE: did not return within ...`.
template <class F>
Status callPluginsTogether(bool anyDeadline, F&& batch) noexcept {
  if (!anyDeadline || deadline::onGuardThread()) return invokeErased<F>(&batch);
  return deadline::runGuarded(&invokeErased<F>, &batch, true);
}

/// True when any of `plugins` (ActivePlugin-like, with a `plugin` pointer) has a call deadline.
template <class Range>
bool anyHasDeadline(const Range& plugins) {
  for (const auto& a : plugins)
    if (a.plugin->entry.callTimeout.ms > 0) return true;
  return false;
}

}  // namespace jobhost
