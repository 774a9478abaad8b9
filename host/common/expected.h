// Expected<T>: a value or an error message, the host's return type at module boundaries.
// Exceptions stay inside a module; what crosses is one of these (or jobhost::Status).
#pragma once

#include <string>
#include <utility>
#include <variant>

#include "jobhost/status.h"

namespace jobhost {

struct Error {
  std::string message;
};

template <class T>
class Expected {
 public:
  Expected(T value) : v_(std::move(value)) {}  // NOLINT: implicit by design
  Expected(Error error) : v_(std::move(error)) {}  // NOLINT
  static Expected failure(std::string message) { return Expected(Error{std::move(message)}); }

  bool ok() const { return std::holds_alternative<T>(v_); }
  explicit operator bool() const { return ok(); }
  T& value() { return std::get<T>(v_); }
  const T& value() const { return std::get<T>(v_); }
  T& operator*() { return value(); }
  const T& operator*() const { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  const std::string& error() const { return std::get<Error>(v_).message; }
  Status status() const { return ok() ? Status::ok() : Status::error(error()); }

 private:
  std::variant<T, Error> v_;
};

}  // namespace jobhost
