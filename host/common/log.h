// Module loggers (spdlog), one per host module, all writing to stderr with one pattern.
// Secret material must never be passed to these.
#pragma once

#include <memory>
#include <string>

#include <spdlog/spdlog.h>

namespace jobhost::log {

/// The logger for a module ("loader", "controller", ...). Created on first use; thread-safe.
std::shared_ptr<spdlog::logger> get(const std::string& module);
/// Sets the level of every module logger ("trace".."off"); false if the name is unknown.
bool setLevel(const std::string& level);

}  // namespace jobhost::log
