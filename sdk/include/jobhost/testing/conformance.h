// The negative suite every plugin gets for free: idempotent hooks, contained exceptions, unknown
// flags reported at admission, OnJobDelete undoing OnJobAdd — one call on a loaded Harness.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "jobhost/testing/export.h"
#include "jobhost/testing/harness.h"

namespace jobhost::testing {

/// Outcome of the suite: the checks that ran ("<plugin>: <check>", every one naming the plugin it
/// checked) and one line per failure ("<plugin>: <check>: <what was wrong>").
struct ConformanceReport {
  std::vector<std::string> checks;
  std::vector<std::string> failures;
  bool ok() const { return failures.empty(); }
};

/// Runs the suite for every plugin of `harness` on `jobYaml` (which must pass admission):
///  - unknown flags: spec.plugins.<plugin> += "--jobhost-conformance-unknown-flag=1" is admitted
///    (as Volcano runs it) with a warning naming the plugin and the flag;
///  - idempotency: each plugin's OnJobAdd, OnJobUpdate, OnJobDelete called twice in a row (plugins
///    in config order, as the host runs them) change nothing the second time (the failure lists
///    what changed: "controlledResources[<key>]: <old> -> <new>", "<Kind> <name>: created");
///    each plugin's OnPodCreate run again on the pod it produced leaves it unchanged (the failure
///    shows each changed list before and after: "container main env: [A=1] -> [A=1, A=1]");
///  - undo: after OnJobAdd ... OnJobDelete, what each plugin's calls changed is as before (no
///    object left, controlledResources restored); the failure lists what that plugin left;
///  - containment: every hook called with a JobContext whose services throw returns (no exception
///    escapes; an error names the call), and an exception thrown at the host-side proxy becomes a
///    hook error naming the plugin.
/// Hooks run against an in-memory object store, not the harness's sim job; the calls appear in
/// hookCalls(). Does not need (nor disturb) a submitted job.
JOBHOST_TESTING_API ConformanceReport checkConformance(Harness& harness, std::string_view jobYaml);

/// checkConformance, each failure reported as a GoogleTest failure of the calling test at the line
/// that called runConformance (so the test fails even when the return value is ignored, and the
/// failure points at the test). Returns report.ok(). `file` and `line` default to the caller's
/// (__builtin_FILE/__builtin_LINE: Clang 14's library has no std::source_location); leave them out.
/// Inline on purpose: libjobhost_testing.so does not contain GoogleTest, so the failures reach the
/// test binary's own.
inline bool runConformance(Harness& harness, std::string_view jobYaml, const char* file = __builtin_FILE(),
                           int line = __builtin_LINE()) {
  const ConformanceReport report = checkConformance(harness, jobYaml);
  for (const auto& failure : report.failures) ADD_FAILURE_AT(file, line) << "conformance: " << failure;
  return report.ok();
}

}  // namespace jobhost::testing
