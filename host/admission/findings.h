// Internal to admission: collects the webhook's message pieces and every field error of one
// admission review, and runs the Validation plugins into it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "host/admission/admission.h"

namespace jobhost {

/// One error of the webhook: `piece` is what Volcano appends to its message (with its own leading
/// space and ';' or lack of them); `field`/`message` is the same error for AdmissionResult::errors.
struct WebhookError {
  std::string piece;
  std::string field;
  std::string message;
};

/// A WebhookError whose message is `piece` without surrounding whitespace and a trailing ';'.
WebhookError webhookError(std::string piece, std::string field);

class Findings {
 public:
  /// Appends the piece to the webhook message and records the error.
  void webhook(const WebhookError& e);
  /// Records the error; on UPDATE the first one becomes the webhook message.
  void firstWins(std::string field, std::string message);
  /// Records an error that is not part of the webhook message. Exact duplicates are dropped.
  void add(std::string field, std::string message);
  /// Records an error the API server raises at `stage`, before the webhook (see ApiServerStage).
  void apiServer(ApiServerStage stage, std::string field, std::string message);
  /// Runs the plugins (when configured) and merges their warnings and errors; an exception thrown
  /// by the hook becomes an error naming it.
  void runPlugins(const AdmissionConfig& config, const Job& job, const Job* oldJob);
  AdmissionResult finish();

 private:
  std::string message_;
  std::vector<FieldError> errors_;
  std::vector<std::string> warnings_;
  ApiServerStage refusedBefore_ = ApiServerStage::None;
  std::vector<FieldError> invalidCauses_;
};

}  // namespace jobhost
