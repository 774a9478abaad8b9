// Status: the error value every SDK call returns instead of throwing.
// Plain value type; safe to copy across the plugin boundary and to keep after a plugin is gone.
#pragma once

#include <string>
#include <utility>

namespace jobhost {

/// Result of a call that can fail. An empty message with ok()==true means success.
/// Ownership: a plain value; the message is copied, never borrowed from plugin memory.
class Status {
 public:
  Status() = default;
  static Status ok() { return Status(); }
  static Status error(std::string message) { return Status(std::move(message)); }

  bool isOk() const { return !failed_; }
  explicit operator bool() const { return !failed_; }
  const std::string& message() const { return message_; }

 private:
  explicit Status(std::string message) : failed_(true), message_(std::move(message)) {}
  bool failed_ = false;
  std::string message_;
};

}  // namespace jobhost
