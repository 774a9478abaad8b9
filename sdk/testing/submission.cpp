// Submission::describe: what admission and submission said about a job, as one line for a test's
// failure message (the findings in `errors` included, which `error` alone leaves out).
#include "jobhost/testing/harness.h"

namespace jobhost::testing {
namespace {

std::string joined(const std::vector<std::string>& parts) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : "; ") + p;
  return out;
}

}  // namespace

std::string Submission::describe() const {
  std::string out;
  if (admitted) {
    out = error.empty() ? "admitted" : "admitted, but not submitted: " + error;
  } else {
    std::vector<std::string> reasons;
    if (!error.empty()) reasons.push_back(error);
    for (const auto& e : errors) reasons.push_back(e.field + ": " + e.message);
    out = reasons.empty() ? "not admitted" : "not admitted: " + joined(reasons);
  }
  if (!warnings.empty()) out += " (warnings: " + joined(warnings) + ")";
  return out;
}

}  // namespace jobhost::testing
