// HookSnapshot: what job hooks can change (the objects in the store, controlledResources) and the
// differences between two snapshots, item by item, so the conformance suite can name who changed what.
#pragma once

#include <map>
#include <string>

#include "jobhost/objects.h"

namespace jobhost::testing {

struct HookSnapshot {
  Components objects;
  std::map<std::string, std::string> controlled;
  friend bool operator==(const HookSnapshot&, const HookSnapshot&) = default;
};

/// Every item that differs, keyed "controlledResources[<key>]" or "<Kind> <name>", each with what
/// happened to it: "<old> -> <new>" ("(unset)" when absent) for a key; "created", "deleted" or
/// "changed" for an object.
std::map<std::string, std::string> differences(const HookSnapshot& before, const HookSnapshot& after);

/// "<item>: <what happened>" for each entry of `diff`, joined by "; ".
std::string describe(const std::map<std::string, std::string>& diff);

}  // namespace jobhost::testing
