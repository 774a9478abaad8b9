// Plugin call deadlines: guarded plugin calls run on a reusable guard thread of the calling thread,
// watched by one watchdog; a call past its deadline is abandoned (never joined), its plugin quarantined.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "host/plugin/registry.h"
#include "jobhost/status.h"

namespace jobhost::deadline {

/// nullopt while `plugin` may be called (cheap while nothing is quarantined). For a quarantined
/// plugin: an error saying why, except at OnJobDelete, which is skipped (ok, logged) so that jobs
/// using the plugin can still be killed and reach a final phase.
std::optional<Status> refuseQuarantined(const RegisteredPlugin& plugin, const char* where);

/// Whether a call into `plugin` was abandoned: its thread may still be inside it.
bool isQuarantined(const RegisteredPlugin& plugin);

/// True once any plugin was quarantined: a thread of it may be parked inside plugin code for good.
bool anyQuarantined();

/// True on a guard thread, where plugin calls run inline under begin()/end().
bool onGuardThread();

/// On a guard thread: publishes the call about to start (plugin, where, its callTimeout) to the
/// watchdog, and withdraws it. end() never returns if the watchdog abandoned the call meanwhile:
/// the thread parks for good, so nothing of the caller that moved on is touched again.
void begin(const RegisteredPlugin& plugin, const char* where);
void end();

/// Runs fn(arg) on this thread's guard thread (created on first use, reused) and waits until it
/// returns or a plugin call inside it passes its deadline: then that call is abandoned, its plugin
/// quarantined, and the error says so (prefixed with `plugin "NAME" failed in WHERE: ` if nameCall).
Status runGuarded(Status (*fn)(void*), void* arg, bool nameCall);

}  // namespace jobhost::deadline
