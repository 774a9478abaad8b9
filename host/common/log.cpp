// Module loggers: stderr sink shared by all modules; default level warn (quiet CLI output).
// Level is set from the CLI (--log-level) or JOBHOST_LOG_LEVEL.
#include "host/common/log.h"

#include <cstdlib>
#include <mutex>

#include <spdlog/sinks/stdout_color_sinks.h>

namespace jobhost::log {
namespace {
std::mutex g_mutex;
spdlog::level::level_enum g_level = spdlog::level::warn;
bool g_levelFromEnv = false;
}  // namespace

std::shared_ptr<spdlog::logger> get(const std::string& module) {
  std::lock_guard lock(g_mutex);
  if (!g_levelFromEnv) {
    g_levelFromEnv = true;
    if (const char* env = std::getenv("JOBHOST_LOG_LEVEL")) {
      auto lvl = spdlog::level::from_str(env);
      if (lvl != spdlog::level::off || std::string(env) == "off") g_level = lvl;
    }
  }
  if (auto existing = spdlog::get(module)) return existing;
  auto logger = spdlog::stderr_color_mt(module);
  logger->set_pattern("%Y-%m-%dT%H:%M:%S.%e %^%l%$ [%n] %v");
  logger->set_level(g_level);
  return logger;
}

bool setLevel(const std::string& level) {
  auto lvl = spdlog::level::from_str(level);
  if (lvl == spdlog::level::off && level != "off") return false;
  std::lock_guard lock(g_mutex);
  g_level = lvl;
  g_levelFromEnv = true;
  spdlog::apply_all([&](std::shared_ptr<spdlog::logger> l) { l->set_level(lvl); });
  return true;
}

}  // namespace jobhost::log
