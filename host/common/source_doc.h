// SourceDoc: a parsed JSON (or YAML-converted) document plus the file:line:column of every value,
// keyed by field path, so every error can point at the exact place in the user's file.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <unordered_map>

#include <rapidjson/document.h>

#include "host/common/expected.h"

namespace jobhost {

struct SourcePos {
  int line = 0;    // 1-based; 0 means unknown
  int column = 0;  // 1-based
};

/// A document and where each of its values came from. Paths look like
/// "spec.tasks[0].template.spec.containers[1].name"; the root is "".
struct SourceDoc {
  std::string file;
  rapidjson::Document doc;
  std::unordered_map<std::string, SourcePos> positions;

  /// Position of `path`, or of its nearest ancestor that has one.
  SourcePos at(std::string_view path) const;
  /// "file:line:column" for `path` (or "file" when nothing is known).
  std::string where(std::string_view path) const;
};

/// Joins a field path: child("spec", "tasks") == "spec.tasks"; index("spec.tasks", 0) == "spec.tasks[0]".
std::string childPath(std::string_view parent, std::string_view key);
std::string indexPath(std::string_view parent, size_t index);

/// The string at `path` (object keys from the root, e.g. {"metadata", "name"}), or "" when a step
/// is missing or the value is not a string.
std::string stringAt(const rapidjson::Value& root, std::initializer_list<const char*> path);

/// Parses JSON text. The error names file:line:column and what RapidJSON found wrong.
Expected<SourceDoc> parseJsonDoc(std::string_view text, std::string file);

/// Reads a whole file; the error names the file and the OS reason.
Expected<std::string> readFile(const std::string& path);

}  // namespace jobhost
