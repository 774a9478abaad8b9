// Volcano's validatePolicies (pkg/webhooks/admission/jobs/validate/util.go) for job and task
// lifecycle policies: the go-multierror text for the webhook message, plus precise field errors.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "jobhost/extension_points.h"
#include "jobhost/job.h"

namespace jobhost {

struct PolicyCheck {
  /// err.Error() of Volcano's multierror ("1 error occurred:\n\t* ...\n\n"); empty when valid.
  std::string error;
  /// The same errors, each at the field it is about (e.g. "spec.tasks[0].policies[1].event").
  std::vector<FieldError> findings;
};

/// Walks `policies` in order; the first failing policy stops the walk, then the "*" rule is
/// checked. `volcanoPath` is the path Volcano prints inside field.Invalid messages
/// ("spec.policies" or "spec.tasks.policies"); `fieldPrefix` is where the list really is
/// ("spec.policies" or "spec.tasks[2].policies"). Exit-code policies' actions are not checked.
PolicyCheck validatePolicies(const std::vector<LifecyclePolicy>& policies, std::string_view volcanoPath,
                             std::string_view fieldPrefix);

/// Events and actions a policy may name, in the order jobhost prints them (Go prints its map
/// keys in random order).
const std::vector<std::string>& validPolicyEvents();
const std::vector<std::string>& validPolicyActions();

/// " valid events are [* PodFailed ...], valid actions are [AbortJob ...];"
std::string validPoliciesSuffix();

}  // namespace jobhost
