// Block-style YAML output in kubectl's layout: two-space indent, list items at their key's
// indentation, strings plain when safe, else literal block scalars or double-quoted.
#include <vector>

#include "host/spec/writers.h"
#include "host/spec/yaml_scalar.h"

namespace jobhost {
namespace {

using Value = rapidjson::Value;

bool isNonEmptyCollection(const Value& v) {
  return (v.IsObject() && !v.ObjectEmpty()) || (v.IsArray() && !v.Empty());
}

std::string hexByte(unsigned char c) {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  return {'\\', 'x', kDigits[c >> 4], kDigits[c & 15]};
}

std::string doubleQuoted(std::string_view s) {
  std::string out = "\"";
  for (size_t i = 0; i < s.size(); ++i) {
    auto c = static_cast<unsigned char>(s[i]);
    std::string_view rest = s.substr(i);
    if (c == '"') out += "\\\"";
    else if (c == '\\') out += "\\\\";
    else if (c == '\n') out += "\\n";
    else if (c == '\t') out += "\\t";
    else if (c == '\r') out += "\\r";
    else if (c < 0x20 || c == 0x7f) out += hexByte(c);
    else if (rest.substr(0, 2) == "\xC2\x85") out += "\\N", i += 1;
    else if (rest.substr(0, 3) == "\xE2\x80\xA8") out += "\\L", i += 2;
    else if (rest.substr(0, 3) == "\xE2\x80\xA9") out += "\\P", i += 2;
    else if (rest.substr(0, 3) == "\xEF\xBB\xBF") out += "\\uFEFF", i += 2;
    else out += static_cast<char>(c);
  }
  return out + "\"";
}

std::vector<std::string_view> splitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  for (size_t nl; (nl = text.find('\n', start)) != std::string_view::npos; start = nl + 1)
    lines.push_back(text.substr(start, nl - start));
  lines.push_back(text.substr(start));
  return lines;
}

// A literal block scalar reproduces `text` exactly only when it has no other control characters,
// no whitespace-only lines, and its first non-empty line does not start with whitespace (that
// line sets the block's indentation).
bool fitsLiteralBlock(std::string_view text, std::string_view content) {
  for (char c : text) {
    auto u = static_cast<unsigned char>(c);
    if ((u < 0x20 && c != '\n' && c != '\t') || u == 0x7f) return false;
  }
  for (std::string_view special : {"\xC2\x85", "\xE2\x80\xA8", "\xE2\x80\xA9", "\xEF\xBB\xBF"})
    if (text.find(special) != std::string_view::npos) return false;
  bool sawContent = false;
  for (std::string_view line : splitLines(content)) {
    if (line.empty()) continue;
    bool blank = line.find_first_not_of(" \t") == std::string_view::npos;
    if (blank || (!sawContent && (line[0] == ' ' || line[0] == '\t'))) return false;
    sawContent = true;
  }
  return sawContent;
}

class YamlWriter {
 public:
  std::string take() { return std::move(out_); }

  void document(const Value& v) {
    if (isNonEmptyCollection(v)) block(v, 0);
    else scalar(v, 2);
  }

 private:
  // A non-empty mapping or sequence whose first entry continues the current line.
  void block(const Value& v, int indent) {
    bool first = true;
    auto startEntry = [&] {
      if (!first) out_.append(static_cast<size_t>(indent), ' ');
      first = false;
    };
    if (v.IsObject()) {
      for (auto it = v.MemberBegin(); it != v.MemberEnd(); ++it) {
        startEntry();
        std::string_view key(it->name.GetString(), it->name.GetStringLength());
        out_ += needsQuotes(key) ? doubleQuoted(key) : std::string(key);
        out_ += ':';
        mappingValue(it->value, indent);
      }
    } else {
      for (const auto& item : v.GetArray()) {
        startEntry();
        out_ += "- ";
        if (isNonEmptyCollection(item)) block(item, indent + 2);
        else scalar(item, indent + 2);
      }
    }
  }

  void mappingValue(const Value& v, int indent) {
    if (v.IsObject() && !v.ObjectEmpty()) {
      out_ += '\n';
      out_.append(static_cast<size_t>(indent + 2), ' ');
      block(v, indent + 2);
    } else if (v.IsArray() && !v.Empty()) {
      out_ += '\n';
      out_.append(static_cast<size_t>(indent), ' ');  // kubectl style: "- " at the key's column
      block(v, indent);
    } else {
      out_ += ' ';
      scalar(v, indent + 2);
    }
  }

  // A scalar or empty collection, then the end of its line(s); block content goes at `contentIndent`.
  void scalar(const Value& v, int contentIndent) {
    if (v.IsString()) return string({v.GetString(), v.GetStringLength()}, contentIndent);
    if (v.IsObject()) out_ += "{}";
    else if (v.IsArray()) out_ += "[]";
    else if (v.IsNull()) out_ += "null";
    else if (v.IsBool()) out_ += v.GetBool() ? "true" : "false";
    else out_ += toJson(v, false);
    out_ += '\n';
  }

  void string(std::string_view text, int contentIndent) {
    size_t trailing = text.size() - (text.find_last_not_of('\n') + 1);
    std::string_view content = text.substr(0, text.size() - trailing);
    if (text.find('\n') != std::string_view::npos && fitsLiteralBlock(text, content)) {
      out_ += trailing == 0 ? "|-\n" : trailing == 1 ? "|\n" : "|+\n";
      for (std::string_view line : splitLines(content)) {
        if (!line.empty()) out_.append(static_cast<size_t>(contentIndent), ' ').append(line);
        out_ += '\n';
      }
      if (trailing > 1) out_.append(trailing - 1, '\n');
      return;
    }
    out_ += needsQuotes(text) ? doubleQuoted(text) : std::string(text);
    out_ += '\n';
  }

  std::string out_;
};

}  // namespace

std::string toYaml(const rapidjson::Value& value) {
  YamlWriter writer;
  writer.document(value);
  return writer.take();
}

}  // namespace jobhost
