// jobCache: what a plugin derives from one job (parsed args, objects it builds), kept between the
// job's hook calls in the plugin's per-job slot (JobContext::pluginData) and rebuilt when stale.
#pragma once

#include <memory>

#include "jobhost/extension_points.h"

namespace jobhost {

/// The plugin's T for the job of this hook call. The T kept in ctx.pluginData() is returned while
/// `current(const T&)` holds; otherwise `make()` builds a new T, which replaces it in the slot. So
/// a cache never answers stale: keep in T everything it was derived from and let `current` compare
/// that with ctx.job() and ctx.args(). Without a slot (pluginData() null) every call makes a new T.
/// A plugin keeps one type T in its slot. Ownership: the result is shared with the slot and stays
/// valid for as long as the caller holds it. Threading: call from hooks only (the hook calls of
/// one job never overlap). Errors: what `current` or `make` throws propagates to the caller.
template <class T, class Current, class Make>
std::shared_ptr<const T> jobCache(JobContext& ctx, Current&& current, Make&& make) {
  std::shared_ptr<void>* slot = ctx.pluginData();
  if (slot != nullptr && *slot != nullptr) {
    std::shared_ptr<const T> kept = std::static_pointer_cast<const T>(*slot);
    if (current(*kept)) return kept;
  }
  std::shared_ptr<T> made = std::make_shared<T>(make());
  if (slot != nullptr) *slot = made;
  return made;
}

}  // namespace jobhost
