// FlagSet: plugin argument parsing with Go `flag` package rules, so Volcano job args work as-is
// (`--x=v`, `-x=v`, `--x v`, bool `--x` / `--x=false`, stop at the first non-flag or `--`).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "jobhost/status.h"

namespace jobhost {

/// A set of named flags bound to caller-owned variables. Not thread-safe; build one per parse.
/// The bound variables must outlive parse().
class FlagSet {
 public:
  /// `owner` names the flags' owner in error messages, e.g. "plugin torch".
  explicit FlagSet(std::string owner) : owner_(std::move(owner)) {}

  void addString(std::string name, std::string* target);
  void addInt(std::string name, int64_t* target);
  void addInt(std::string name, int32_t* target);
  void addBool(std::string name, bool* target);

  /// Parses like Go's flag.FlagSet.Parse with ContinueOnError. On error, flags parsed before the
  /// bad one keep their values, the bad one holds what Go stores (false, 0, or the bound a value
  /// out of range passed), later ones keep their defaults, and the message is Go's text prefixed with the owner, e.g.
  /// `plugin torch: flag provided but not defined: -foo`.
  Status parse(const std::vector<std::string>& args);
  /// Arguments left after the first non-flag argument (or after `--`).
  const std::vector<std::string>& remaining() const { return remaining_; }

 private:
  enum class Kind { String, Int64, Int32, Bool };
  struct Flag {
    std::string name;
    Kind kind;
    void* target;
  };
  Flag* find(std::string_view name);
  Status set(Flag& flag, std::string_view value);
  Status fail(std::string message) const;

  std::string owner_;
  std::vector<Flag> flags_;
  std::vector<std::string> remaining_;
};

/// The admission warning for a job's flag that failed to parse or has a bad value. Volcano logs
/// such a flag and runs the plugin with the flags parsed before it (a value that does not parse is
/// stored as Go stores it, later flags keep their defaults), and so do the hooks here; Validation
/// reports it as a warning so the job is still admitted.
inline std::string ignoredFlagWarning(std::string_view field, const Status& parseError) {
  return std::string(field) + ": " + parseError.message() +
         " (ignored as on Volcano: flags before it apply, flags after it keep their defaults, and a value that "
         "does not parse is set as Go sets it: 0, false or the bound it passed)";
}

}  // namespace jobhost
