// AbandonScope bookkeeping: a thread-local pointer to the current worker's scope and the RAII
// helpers the primitives use around plugin calls.
#include "host/controller/abandon_scope.h"

#include <utility>

namespace jobhost {
namespace {
thread_local AbandonScope* tlScope = nullptr;
}

AbandonScope* currentAbandonScope() { return tlScope; }

ProcessingScope::ProcessingScope(AbandonScope& scope) : previous_(std::exchange(tlScope, &scope)) {
  scope.errorPrefix = {};
  scope.undo = nullptr;
}

ProcessingScope::~ProcessingScope() { tlScope = previous_; }

PluginCallSite::PluginCallSite(std::string_view errorPrefix) : scope_(tlScope) {
  if (scope_) previous_ = std::exchange(scope_->errorPrefix, errorPrefix);
}

PluginCallSite::~PluginCallSite() {
  if (scope_) scope_->errorPrefix = previous_;
}

UndoOnAbandon::UndoOnAbandon(std::function<void()> undo) : scope_(tlScope) {
  if (scope_) previous_ = std::exchange(scope_->undo, std::move(undo));
}

UndoOnAbandon::~UndoOnAbandon() {
  if (scope_) scope_->undo = std::move(previous_);
}

}  // namespace jobhost
