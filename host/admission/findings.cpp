// The admission result under construction: Volcano's message, the field errors, plugin output.
// Exact duplicate findings are dropped; plugin exceptions are turned into errors.
#include "host/admission/findings.h"

#include <exception>

#include "host/admission/go_text.h"

namespace jobhost {

WebhookError webhookError(std::string piece, std::string field) {
  std::string_view text = gotext::trimSpace(piece);
  if (!text.empty() && text.back() == ';') text.remove_suffix(1);
  std::string message(text);
  return {std::move(piece), std::move(field), std::move(message)};
}

void Findings::webhook(const WebhookError& e) {
  message_ += e.piece;
  errors_.push_back({e.field, e.message});
}

void Findings::firstWins(std::string field, std::string message) {
  if (message_.empty()) message_ = message;
  add(std::move(field), std::move(message));
}

void Findings::add(std::string field, std::string message) {
  for (const auto& e : errors_)
    if (e.field == field && e.message == message) return;
  errors_.push_back({std::move(field), std::move(message)});
}

void Findings::apiServer(ApiServerStage stage, std::string field, std::string message) {
  if (refusedBefore_ == ApiServerStage::None || stage < refusedBefore_) refusedBefore_ = stage;
  if (stage == ApiServerStage::ObjectValidation) invalidCauses_.push_back({field, message});
  add(std::move(field), std::move(message));
}

void Findings::runPlugins(const AdmissionConfig& config, const Job& job, const Job* oldJob) {
  if (!config.pluginValidation) return;
  ValidationResult result;
  try {
    config.pluginValidation(job, oldJob, result);
  } catch (const std::exception& e) {
    result.errors.push_back({"", std::string("validation plugins failed: ") + e.what()});
  } catch (...) {
    result.errors.push_back({"", "validation plugins failed with an unknown exception"});
  }
  for (auto& w : result.warnings) warnings_.push_back(std::move(w));
  for (auto& e : result.errors) errors_.push_back(std::move(e));
}

AdmissionResult Findings::finish() {
  AdmissionResult r;
  r.allowed = errors_.empty();
  r.message = std::string(gotext::trimSpace(message_));
  r.errors = std::move(errors_);
  r.warnings = std::move(warnings_);
  r.refusedBefore = refusedBefore_;
  r.invalidCauses = std::move(invalidCauses_);
  return r;
}

}  // namespace jobhost
