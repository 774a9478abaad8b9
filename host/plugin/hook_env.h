// HookEnv: the env conflict tracking of one pod's (or one job's) hook calls: who set which
// variable of which container through JobContext::setEnv, and the first conflict between plugins.
#pragma once

#include <string>
#include <vector>

#include "jobhost/runtime_info.h"

namespace jobhost {

/// Like the pipeline's EnvLedger, and reporting in its words, for hook calls: a plugin that sets a
/// variable another plugin set in the same container to a different value is a conflict. Kept
/// across the pods of a batch (reset() keeps its buffers), so recording a variable does not
/// allocate (names of up to 15 characters). One thread at a time.
class HookEnv {
 public:
  /// The scope is "<kind> <name>" (e.g. "pod demo-worker-0"); `name` must outlive its use.
  HookEnv(const char* kind, const std::string& name) : kind_(kind), name_(&name) {}
  /// Starts over for another pod (or job) called `name`, forgetting what was recorded.
  void reset(const std::string& name);
  /// Upserts `var` into `container` for `plugin` (which must outlive this object) and records it.
  void setEnv(const std::string& plugin, Container& container, EnvVar&& var);
  /// The first conflict since the last reset, or empty.
  const std::string& conflict() const { return conflict_; }

 private:
  struct Entry {
    std::string container;
    const std::string* plugin = nullptr;
    EnvVar value;
  };
  std::string conflictMessage(const Entry& was, const std::string& plugin, const EnvVar& var) const;

  const char* kind_;
  const std::string* name_;
  std::vector<Entry> entries_;
  std::string conflict_;
};

}  // namespace jobhost
