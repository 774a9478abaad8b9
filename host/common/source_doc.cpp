// JSON parsing with per-value source positions: a RapidJSON SAX pass over a line-counting stream
// builds the DOM, records the position of every object member and array element, refuses repeated keys.
#include "host/common/source_doc.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unordered_map>
#include <vector>

#include <rapidjson/error/en.h>
#include <rapidjson/reader.h>

namespace jobhost {

std::string childPath(std::string_view parent, std::string_view key) {
  if (parent.empty()) return std::string(key);
  std::string p(parent);
  p.push_back('.');
  p.append(key);
  return p;
}

std::string indexPath(std::string_view parent, size_t index) {
  return std::string(parent) + "[" + std::to_string(index) + "]";
}

SourcePos SourceDoc::at(std::string_view path) const {
  std::string p(path);
  while (true) {
    if (auto it = positions.find(p); it != positions.end()) return it->second;
    if (p.empty()) return {};
    auto cut = p.find_last_of(".[");
    p = cut == std::string::npos ? std::string() : p.substr(0, cut);
  }
}

std::string stringAt(const rapidjson::Value& root, std::initializer_list<const char*> path) {
  const rapidjson::Value* v = &root;
  for (const char* key : path) {
    if (!v->IsObject()) return {};
    auto it = v->FindMember(key);
    if (it == v->MemberEnd()) return {};
    v = &it->value;
  }
  return v->IsString() ? std::string(v->GetString(), v->GetStringLength()) : std::string();
}

std::string SourceDoc::where(std::string_view path) const {
  SourcePos pos = at(path);
  if (pos.line == 0) return file;
  return file + ":" + std::to_string(pos.line) + ":" + std::to_string(pos.column);
}

namespace {

constexpr size_t kMaxJsonDepth = 1000;  // as YAML documents (host/spec/yaml_doc.cpp)

// A RapidJSON input stream over text, with a line table to turn offsets into line:column.
class CountingStream {
 public:
  using Ch = char;
  explicit CountingStream(std::string_view text) : text_(text) {
    lineStarts_.push_back(0);
    for (size_t i = 0; i < text.size(); ++i)
      if (text[i] == '\n') lineStarts_.push_back(i + 1);
  }
  Ch Peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  Ch Take() { return pos_ < text_.size() ? text_[pos_++] : '\0'; }
  size_t Tell() const { return pos_; }
  Ch* PutBegin() { return nullptr; }
  void Put(Ch) {}
  void Flush() {}
  size_t PutEnd(Ch*) { return 0; }

  SourcePos posAt(size_t offset) const {
    auto it = std::upper_bound(lineStarts_.begin(), lineStarts_.end(), offset);
    const size_t line = static_cast<size_t>(it - lineStarts_.begin());
    return {static_cast<int>(line), static_cast<int>(offset - lineStarts_[line - 1] + 1)};
  }
  // Where the token that just ended (a string, number or literal) started.
  SourcePos tokenStart() const {
    if (pos_ == 0) return {1, 1};
    size_t i = pos_ - 1;
    if (text_[i] == '"') {
      while (i > 0) {
        --i;
        if (text_[i] == '"' && (i == 0 || text_[i - 1] != '\\')) break;
      }
    } else {
      while (i > 0 && (std::isalnum(static_cast<unsigned char>(text_[i - 1])) || text_[i - 1] == '.' ||
                       text_[i - 1] == '-' || text_[i - 1] == '+'))
        --i;
    }
    return posAt(i);
  }
  // Where the bracket just consumed ('{' or '[') is.
  SourcePos lastChar() const { return posAt(pos_ == 0 ? 0 : pos_ - 1); }

 private:
  std::string_view text_;
  size_t pos_ = 0;
  std::vector<size_t> lineStarts_;
};

// Builds the DOM through rapidjson::Document's own handler while tracking the current path.
class PositionHandler {
 public:
  PositionHandler(SourceDoc& out, CountingStream& in) : out_(out), in_(in) {}

  bool Null() { return value([&] { return out_.doc.Null(); }); }
  // Scalars: the position is where the token began (for array elements) or the member's key.
  bool Bool(bool b) { return value([&] { return out_.doc.Bool(b); }); }
  bool Int(int i) { return value([&] { return out_.doc.Int(i); }); }
  bool Uint(unsigned u) { return value([&] { return out_.doc.Uint(u); }); }
  bool Int64(int64_t i) { return value([&] { return out_.doc.Int64(i); }); }
  bool Uint64(uint64_t u) { return value([&] { return out_.doc.Uint64(u); }); }
  bool Double(double d) { return value([&] { return out_.doc.Double(d); }); }
  // Numbers arrive as text (kParseNumbersAsStringsFlag): RapidJSON 1.1's own full-precision
  // conversion overflows on a zero significand with a large exponent (found by fuzz/job_yaml). Integers
  // that fit 64 bits stay integers; the rest are correctly rounded doubles.
  bool RawNumber(const char* s, rapidjson::SizeType n, bool) {
    return value([&] {
      const char* end = s + n;
      if (std::find_if(s, end, [](char c) { return c == '.' || c == 'e' || c == 'E'; }) == end) {
        int64_t i = 0;
        uint64_t u = 0;
        if (*s == '-' && std::from_chars(s, end, i).ec == std::errc()) return out_.doc.Int64(i);
        if (*s != '-' && std::from_chars(s, end, u).ec == std::errc()) return out_.doc.Uint64(u);
      }
      double d = 0;
      if (std::from_chars(s, end, d).ec == std::errc()) return out_.doc.Double(d);
      d = std::strtod(std::string(s, n).c_str(), nullptr);  // out of range: underflow gives 0
      if (std::isinf(d)) {
        tooBig_ = true;
        return false;
      }
      return out_.doc.Double(d);
    });
  }
  /// True when parsing stopped at an object or array nested deeper than kMaxJsonDepth.
  bool stoppedTooDeep() const { return tooDeep_; }
  /// True when parsing stopped at a number beyond the range of a double.
  bool stoppedAtTooBigNumber() const { return tooBig_; }
  /// Why parsing stopped at a repeated key of an object; empty when it did not.
  const std::string& duplicateKey() const { return duplicate_; }
  bool String(const char* s, rapidjson::SizeType n, bool copy) {
    return value([&] { return out_.doc.String(s, n, copy); });
  }
  bool StartObject() {
    if (tooDeep()) return false;
    enter(in_.lastChar());
    frames_.push_back({current_, false, 0, true});
    return out_.doc.StartObject();
  }
  bool Key(const char* s, rapidjson::SizeType n, bool copy) {
    pendingKey_.assign(s, n);
    keyPos_ = in_.tokenStart();
    // A repeated key is an error, as in YAML documents and in kubectl's strict decoding.
    auto [first, added] = frames_.back().keys.try_emplace(pendingKey_, keyPos_.line);
    if (!added) {
      duplicate_ = "duplicate key \"" + pendingKey_ + "\" (first defined on line " + std::to_string(first->second) + ")";
      return false;
    }
    return out_.doc.Key(s, n, copy);
  }
  bool EndObject(rapidjson::SizeType n) {
    frames_.pop_back();
    return out_.doc.EndObject(n);
  }
  bool StartArray() {
    if (tooDeep()) return false;
    enter(in_.lastChar());
    frames_.push_back({current_, true, 0, true});
    return out_.doc.StartArray();
  }
  bool EndArray(rapidjson::SizeType n) {
    frames_.pop_back();
    return out_.doc.EndArray(n);
  }

 private:
  struct Frame {
    std::string path;
    bool array;
    size_t next;
    bool open;
    std::unordered_map<std::string, int> keys = {};  // an object's keys so far -> line
  };
  // Computes the path of the value starting now and records its position.
  void enter(SourcePos pos) {
    if (frames_.empty()) {
      current_.clear();
      pos = {1, 1};
    } else if (frames_.back().array) {
      current_ = indexPath(frames_.back().path, frames_.back().next++);
    } else {
      current_ = childPath(frames_.back().path, pendingKey_);
      pos = keyPos_;
    }
    out_.positions.emplace(current_, pos);
  }
  // RapidJSON's reader recurses once per level, and each level's path is longer than the last:
  // the same limit as YAML documents, before the stack or memory runs out.
  bool tooDeep() {
    tooDeep_ = frames_.size() >= kMaxJsonDepth;
    return tooDeep_;
  }
  template <class F>
  bool value(F&& f) {
    enter(in_.tokenStart());
    return f();
  }

  SourceDoc& out_;
  CountingStream& in_;
  std::vector<Frame> frames_;
  std::string current_;
  std::string pendingKey_;
  SourcePos keyPos_;
  bool tooBig_ = false;
  bool tooDeep_ = false;
  std::string duplicate_;
};

}  // namespace

Expected<SourceDoc> parseJsonDoc(std::string_view text, std::string file) {
  SourceDoc out;
  out.file = std::move(file);
  CountingStream stream(text);
  rapidjson::Reader reader;
  rapidjson::ParseResult result;
  // Populate() runs the SAX pass with the document as handler and then installs the root value.
  bool tooBig = false, tooDeep = false;
  std::string duplicate;
  auto generate = [&](rapidjson::Document&) {
    PositionHandler handler(out, stream);
    result = reader.Parse<rapidjson::kParseNumbersAsStringsFlag | rapidjson::kParseValidateEncodingFlag>(stream, handler);
    tooBig = handler.stoppedAtTooBigNumber();
    tooDeep = handler.stoppedTooDeep();
    duplicate = handler.duplicateKey();
    return !result.IsError();
  };
  out.doc.Populate(generate);
  if (result.IsError()) {
    const SourcePos pos = tooDeep                                ? stream.lastChar()
                          : tooBig || !duplicate.empty()         ? stream.tokenStart()
                                                                 : stream.posAt(result.Offset());
    const std::string why = tooDeep             ? "nesting deeper than " + std::to_string(kMaxJsonDepth) + " levels"
                            : tooBig            ? rapidjson::GetParseError_En(rapidjson::kParseErrorNumberTooBig)
                            : !duplicate.empty() ? duplicate
                                                 : rapidjson::GetParseError_En(result.Code());
    return Expected<SourceDoc>::failure(out.file + ":" + std::to_string(pos.line) + ":" + std::to_string(pos.column) +
                                        ": invalid JSON: " + why);
  }
  return out;
}

Expected<std::string> readFile(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    return Expected<std::string>::failure(path + ": is a directory; name a file in it");
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return Expected<std::string>::failure(path + ": cannot read file: " + std::strerror(errno));
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace jobhost
