// AbandonScope: what a request being processed leaves behind when a plugin call inside it passes
// its deadline and is abandoned — the error its failure path would return and what to undo.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "jobhost/status.h"

namespace jobhost {

/// One per worker. While a request is processed, the primitives (syncJob, killPods) record here
/// the prefix their failure path gives a plugin error and how to restore what they changed in
/// place; the worker that takes over an abandoned request reads it (the thread that was
/// processing never returns from the plugin).
struct AbandonScope {
  std::string_view errorPrefix;
  std::function<void()> undo;
};

/// The scope of the request this thread processes, or nullptr.
AbandonScope* currentAbandonScope();

/// Makes `scope` this thread's current scope for its lifetime.
class ProcessingScope {
 public:
  explicit ProcessingScope(AbandonScope& scope);
  ~ProcessingScope();
  ProcessingScope(const ProcessingScope&) = delete;
  ProcessingScope& operator=(const ProcessingScope&) = delete;

 private:
  AbandonScope* previous_;
};

/// Around plugin calls: the failure prefix they get, restored afterwards.
class PluginCallSite {
 public:
  explicit PluginCallSite(std::string_view errorPrefix);
  ~PluginCallSite();
  PluginCallSite(const PluginCallSite&) = delete;
  PluginCallSite& operator=(const PluginCallSite&) = delete;

 private:
  AbandonScope* scope_;
  std::string_view previous_;
};

/// Runs `step` (which may call plugins) with `errorPrefix` on its failures: the prefix its error
/// gets here, and the one an abandoned plugin call inside it gets (a PluginCallSite).
template <class Step>
Status withErrorPrefix(std::string_view errorPrefix, Step&& step) {
  PluginCallSite site(errorPrefix);
  Status st = step();
  if (!st) st = Status::error(std::string(errorPrefix) + st.message());
  return st;
}

/// Around a primitive that changes the job in place before plugin calls: how to undo that.
class UndoOnAbandon {
 public:
  explicit UndoOnAbandon(std::function<void()> undo);
  ~UndoOnAbandon();
  UndoOnAbandon(const UndoOnAbandon&) = delete;
  UndoOnAbandon& operator=(const UndoOnAbandon&) = delete;

 private:
  AbandonScope* scope_;
  std::function<void()> previous_;
};

}  // namespace jobhost
