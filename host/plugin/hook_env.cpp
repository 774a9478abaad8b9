// HookEnv: records each variable a plugin sets once per container; a conflict's message is the one
// EnvLedger words for the same two settings (it is replayed through one), so both read alike.
#include "host/plugin/hook_env.h"

namespace jobhost {

void HookEnv::reset(const std::string& name) {
  name_ = &name;
  entries_.clear();
  conflict_.clear();
}

void HookEnv::setEnv(const std::string& plugin, Container& container, EnvVar&& var) {
  Entry* found = nullptr;
  for (auto& e : entries_)
    if (e.value.name == var.name && e.container == container.name) found = &e;
  if (found == nullptr) {
    if (entries_.empty()) entries_.reserve(8);  // a pod's few variables, without regrowth
    Entry& e = entries_.emplace_back();
    e.container = container.name;
    e.plugin = &plugin;
    e.value = var;
  } else {
    if (conflict_.empty() && *found->plugin != plugin && !(found->value == var))
      conflict_ = conflictMessage(*found, plugin, var);
    found->plugin = &plugin;
    found->value = var;
  }
  upsertEnv(container.env, std::move(var));
}

std::string HookEnv::conflictMessage(const Entry& was, const std::string& plugin, const EnvVar& var) const {
  const std::string scope = std::string(kind_) + " " + *name_;
  Container scratch;
  scratch.name = was.container;
  EnvLedger ledger;
  ledger.setActor(*was.plugin);
  ledger.setEnv(scope, scratch, was.value);
  ledger.setActor(plugin);
  ledger.setEnv(scope, scratch, var);
  return ledger.conflicts().front();
}

}  // namespace jobhost
