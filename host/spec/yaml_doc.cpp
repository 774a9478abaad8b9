// YAML stream -> SourceDocs: yaml-cpp parses, then a recursive walk builds the RapidJSON tree,
// types plain scalars, expands merge keys and records each value's 1-based position by field path.
#include "host/spec/yaml_doc.h"

#include <algorithm>
#include <optional>
#include <sstream>
#include <unordered_map>
#include <utility>

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include "host/spec/yaml_scalar.h"
#include "host/spec/yaml_text_check.h"

namespace jobhost {
namespace {

constexpr int kMaxDepth = 1000;
constexpr size_t kMaxValues = 1'000'000;
constexpr std::string_view kStrTag = "tag:yaml.org,2002:str";
constexpr std::string_view kCoreTagPrefix = "tag:yaml.org,2002:";

// Thrown inside this file only; parseYamlDocs turns it into an Expected error.
struct YamlError {
  SourcePos pos;
  std::string message;
};

SourcePos positionOf(const YAML::Mark& mark, SourcePos fallback) {
  if (mark.is_null() || mark.line < 0 || mark.column < 0) return fallback;
  return {mark.line + 1, mark.column + 1};
}

// yaml-cpp marks an implicit null ("key:") at the next token, so nulls point at their key.
SourcePos valuePosition(const YAML::Node& value, SourcePos keyPos) {
  return value.IsNull() ? keyPos : positionOf(value.Mark(), keyPos);
}

std::string quoted(const std::string& text) { return "\"" + text + "\""; }

class YamlToJson {
 public:
  explicit YamlToJson(SourceDoc& out) : out_(out), allocator_(out.doc.GetAllocator()) {}

  void convert(const YAML::Node& node, rapidjson::Value& into, const std::string& path,
               SourcePos pos, int depth) {
    if (depth > kMaxDepth)
      throw YamlError{pos, "nesting deeper than " + std::to_string(kMaxDepth) + " levels (a recursive alias?)"};
    if (++values_ > kMaxValues)
      throw YamlError{pos, "more than " + std::to_string(kMaxValues) + " values (alias expansion?)"};
    out_.positions.emplace(path, pos);
    switch (node.Type()) {
      case YAML::NodeType::Map: return convertMap(node, into, path, depth);
      case YAML::NodeType::Sequence: return convertSequence(node, into, path, pos, depth);
      case YAML::NodeType::Scalar: return convertScalar(node, into, pos);
      case YAML::NodeType::Null:
        if (node.Tag() == kStrTag) into.SetString("", 0, allocator_);
        else into.SetNull();
        return;
      case YAML::NodeType::Undefined: into.SetNull(); return;
    }
  }

 private:
  static bool isPlainOrCoreTag(const std::string& tag) {
    return tag == "?" || (tag.rfind(kCoreTagPrefix, 0) == 0 && tag != kStrTag);
  }

  // A key is typed as a value is, then made text as kubectl makes it (`yes:` is "true").
  std::string keyName(const YAML::Node& key, SourcePos pos) {
    if (!isPlainOrCoreTag(key.Tag())) return key.Scalar();
    if (key.Tag() != "?") {
      rapidjson::Value typed;
      convertScalar(key, typed, pos);  // checks the tag (!!int abc is an error)
    }
    std::optional<std::string> name = plainKeyName(key.Scalar());
    if (!name)
      throw YamlError{pos, "mapping key " + quoted(key.Scalar()) +
                               " is a null or an integer beyond int64, which kubectl cannot turn into a JSON "
                               "field name; quote it to keep it as text"};
    return *name;
  }

  void convertScalar(const YAML::Node& node, rapidjson::Value& into, SourcePos pos) {
    const std::string& text = node.Scalar();
    const std::string& tag = node.Tag();
    if (!isPlainOrCoreTag(tag)) {  // quoted, block, !!str and application tags: text
      into.SetString(text, allocator_);
      return;
    }
    if (!plainScalarToJson(text, into, allocator_))
      throw YamlError{pos, quoted(text) + " (infinity or NaN) cannot be represented in JSON; quote it to keep it as text"};
    if (tag == "?") return;
    std::string type = tag.substr(kCoreTagPrefix.size());
    checkCoreTag(type, text, into, pos);
    if (type == "float" && !into.IsDouble()) into.SetDouble(into.GetDouble());  // !!float 7 is 7.0
  }

  static void checkCoreTag(const std::string& type, const std::string& text,
                           const rapidjson::Value& value, SourcePos pos) {
    bool matches = type == "int"     ? value.IsInt64() || value.IsUint64()
                   : type == "float" ? value.IsNumber()
                   : type == "bool"  ? value.IsBool()
                   : type == "null"  ? value.IsNull()
                                     : true;
    if (!matches) throw YamlError{pos, quoted(text) + " is not a valid !!" + type};
  }

  void convertSequence(const YAML::Node& node, rapidjson::Value& into, const std::string& path,
                       SourcePos pos, int depth) {
    into.SetArray();
    size_t index = 0;
    for (const auto& item : node) {
      rapidjson::Value child;
      convert(item, child, indexPath(path, index++), positionOf(item.Mark(), pos), depth + 1);
      into.PushBack(std::move(child), allocator_);
    }
  }

  void convertMap(const YAML::Node& node, rapidjson::Value& into, const std::string& path, int depth) {
    into.SetObject();
    std::unordered_map<std::string, KeySeen> seen;  // by name
    std::vector<YAML::Node> mergeSources;
    for (auto it = node.begin(); it != node.end(); ++it) {
      const YAML::Node key = it->first;  // copies: the iterator hands out temporaries
      const YAML::Node value = it->second;
      SourcePos keyPos = positionOf(key.Mark(), out_.at(path));
      if (!key.IsScalar()) throw YamlError{keyPos, "mapping keys must be non-null scalars"};
      if (key.Tag() == "?" && key.Scalar() == "<<") {
        collectMergeSources(value, keyPos, mergeSources);
        continue;
      }
      const std::string name = keyName(key, keyPos);
      auto [first, inserted] = seen.emplace(name, KeySeen{keyPos.line, key.Scalar()});
      if (!inserted) throw YamlError{keyPos, duplicateKeyMessage(name, first->second, key.Scalar())};
      addMember(into, name, value, path, valuePosition(value, keyPos), depth);
    }
    // Merged entries never override explicit keys, and earlier sources win over later ones.
    for (const auto& source : mergeSources) {
      for (auto it = source.begin(); it != source.end(); ++it) {
        const YAML::Node key = it->first;
        const YAML::Node value = it->second;
        SourcePos keyPos = positionOf(key.Mark(), out_.at(path));
        const std::string name = keyName(key, keyPos);
        if (!seen.emplace(name, KeySeen{}).second) continue;
        addMember(into, name, value, path, valuePosition(value, keyPos), depth);
      }
    }
  }

  void addMember(rapidjson::Value& into, const std::string& name, const YAML::Node& value,
                 const std::string& path, SourcePos pos, int depth) {
    rapidjson::Value child;
    convert(value, child, childPath(path, name), pos, depth + 1);
    into.AddMember(rapidjson::Value(name, allocator_), std::move(child), allocator_);
  }

  struct KeySeen {
    int line = 0;
    std::string text;  // as written
  };

  static std::string duplicateKeyMessage(const std::string& name, const KeySeen& first, const std::string& text) {
    std::string message = "duplicate key " + quoted(name) + " (first defined on line " + std::to_string(first.line) + ")";
    if (first.text == name && text == name) return message;
    return message + ": kubectl names the keys " + quoted(first.text) + " and " + quoted(text) + " both " +
           quoted(name) + "; quote a key to keep it as text";
  }

  static void collectMergeSources(const YAML::Node& value, SourcePos pos, std::vector<YAML::Node>& out) {
    if (value.IsMap()) return out.push_back(value);
    bool listOfMaps = value.IsSequence();
    for (const auto& item : value) listOfMaps = listOfMaps && item.IsMap();
    if (!listOfMaps) throw YamlError{pos, "the value of a << merge key must be a mapping or a list of mappings"};
    for (const auto& item : value) out.push_back(item);
  }

  SourceDoc& out_;
  rapidjson::Document::AllocatorType& allocator_;
  size_t values_ = 0;
};

/// Ignores every parse event but remembers where the last null node was: used to walk the
/// document stream without building nodes.
class IgnoreEvents final : public YAML::EventHandler {
 public:
  YAML::Mark lastNull;

  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& mark, YAML::anchor_t) override { lastNull = mark; }
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
};

/// yaml-cpp 0.7 can stop moving forward after a document's top-level node on a token it cannot
/// place (a stray ',' as in `"a" ,`, or odd bytes around a `?` key): YAML::LoadAll then appends
/// empty documents for ever (yaml-cpp PR #1319). Every real document takes at least one byte, so
/// a stream that yields more documents than it has bytes is stuck: returns where, else nullopt.
std::optional<YAML::Mark> stuckAt(const std::string& text) {
  std::istringstream in(text);
  YAML::Parser parser(in);
  IgnoreEvents events;
  for (size_t docs = 0; parser.HandleNextDocument(events);)
    if (++docs > text.size()) return events.lastNull;
  return std::nullopt;
}

/// The 1-based line and column (in bytes) of byte `offset` of `text`.
SourcePos positionAt(std::string_view text, size_t offset) {
  const std::string_view before = text.substr(0, offset);
  const size_t lineStart = before.rfind('\n') == std::string_view::npos ? 0 : before.rfind('\n') + 1;
  return SourcePos{static_cast<int>(std::count(before.begin(), before.end(), '\n')) + 1,
                   static_cast<int>(offset - lineStart) + 1};
}

std::string located(const std::string& file, SourcePos pos, const std::string& message) {
  std::string where = pos.line == 0 ? file : file + ":" + std::to_string(pos.line) + ":" + std::to_string(pos.column);
  return where + ": invalid YAML: " + message;
}

}  // namespace

Expected<std::vector<YAML::Node>> loadYamlNodes(std::string_view text, const std::string& file) {
  using Result = Expected<std::vector<YAML::Node>>;
  std::vector<YAML::Node> nodes;
  try {
    if (auto bad = firstUnreadableCharacter(text)) return Result::failure(located(file, positionAt(text, bad->offset), bad->message));
    const std::string stream(text);
    if (auto stuck = stuckAt(stream))
      return Result::failure(located(file, positionOf(*stuck, {}),
                                     stuck->pos >= 0 && static_cast<size_t>(stuck->pos) < stream.size() &&
                                             stream[static_cast<size_t>(stuck->pos)] == ','
                                         ? "a ',' outside a [ ] or { } collection; remove it or quote the value"
                                         : "the parser cannot get past this token; remove the stray characters or quote the value"));
    for (YAML::Node& root : YAML::LoadAll(stream))
      if (!root.IsNull() && root.IsDefined()) nodes.push_back(std::move(root));
  } catch (const YAML::DeepRecursion& e) {  // yaml-cpp calls it "bad file"
    return Result::failure(located(file, positionOf(e.mark, {}),
                                   "nesting deeper than " + std::to_string(e.depth()) +
                                       " levels, the YAML parser's limit; flatten the document"));
  } catch (const YAML::Exception& e) {
    return Result::failure(located(file, positionOf(e.mark, {}), e.msg));
  }
  return nodes;
}

Expected<std::vector<SourceDoc>> parseYamlDocs(std::string_view text, std::string file) {
  using Result = Expected<std::vector<SourceDoc>>;
  auto nodes = loadYamlNodes(text, file);
  if (!nodes) return Result::failure(nodes.error());
  std::vector<SourceDoc> docs;
  try {
    for (const YAML::Node& root : *nodes) {
      SourceDoc doc;
      doc.file = file;
      YamlToJson(doc).convert(root, doc.doc, "", positionOf(root.Mark(), {1, 1}), 0);
      docs.push_back(std::move(doc));
    }
  } catch (const YamlError& e) {
    return Result::failure(located(file, e.pos, e.message));
  } catch (const YAML::Exception& e) {
    return Result::failure(located(file, positionOf(e.mark, {}), e.msg));
  } catch (const std::exception& e) {
    return Result::failure(located(file, {}, e.what()));
  }
  return docs;
}

}  // namespace jobhost
