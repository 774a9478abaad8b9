// YAML input: converts every document of a YAML stream into a SourceDoc (a RapidJSON tree plus the
// file:line:column of every value), so YAML and JSON inputs are decoded by the same code.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <yaml-cpp/node/node.h>

#include "host/common/expected.h"
#include "host/common/source_doc.h"

namespace jobhost {

/// One SourceDoc per non-empty document of `text` ("---" separated; empty and null documents are
/// skipped), each named `file`. Positions are 1-based and point at each value (for a null mapping
/// value: at its key). Scalars: quoted or block scalars and `!!str` are strings; plain scalars are
/// typed as kubectl types them (YAML 1.1, see plainScalarToJson); keys stay text. Anchors, aliases
/// and `<<` merge keys are expanded. Errors read "file:line:col: invalid YAML: <reason>" (yaml-cpp's syntax message,
/// duplicate keys, non-scalar keys, .inf/.nan, tags that contradict their value).
Expected<std::vector<SourceDoc>> parseYamlDocs(std::string_view text, std::string file);

/// The non-empty documents of `text` as yaml-cpp nodes, behind parseYamlDocs's guards: a parser
/// stuck on a stray token and nesting past yaml-cpp's depth limit are errors, in the same form.
Expected<std::vector<YAML::Node>> loadYamlNodes(std::string_view text, const std::string& file);

}  // namespace jobhost
