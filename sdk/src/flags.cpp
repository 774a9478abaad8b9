// Go `flag` package parsing rules (ContinueOnError) for plugin arguments, with Go's error texts.
// Integers follow strconv.ParseInt(s, 0, 64); booleans follow strconv.ParseBool.
#include "jobhost/flags.h"

#include <algorithm>
#include <limits>

namespace jobhost {
namespace {

bool parseGoBool(std::string_view s, bool& out) {
  if (s == "1" || s == "t" || s == "T" || s == "TRUE" || s == "true" || s == "True")
    return (out = true, true);
  if (s == "0" || s == "f" || s == "F" || s == "FALSE" || s == "false" || s == "False")
    return (out = false, true);
  return false;
}

// strconv.ParseInt(s, 0, 64): optional sign, 0x/0o/0b/leading-0 prefixes, '_' between digits
// only with a base prefix. Returns "" on success, else "parse error" or "value out of range".
std::string parseGoInt(std::string_view s, int64_t& out) {
  bool neg = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    neg = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s.empty()) return "parse error";
  int base = 10;
  bool prefixed = false;
  if (s.size() >= 2 && s[0] == '0') {
    char p = static_cast<char>(s[1] | 0x20);
    if (p == 'x') base = 16, prefixed = true, s.remove_prefix(2);
    else if (p == 'o') base = 8, prefixed = true, s.remove_prefix(2);
    else if (p == 'b') base = 2, prefixed = true, s.remove_prefix(2);
    else base = 8, prefixed = true, s.remove_prefix(1);
  }
  unsigned __int128 v = 0;
  bool any = false;
  char saw = prefixed ? '0' : '^';  // Go's underscoreOK: a base prefix counts as a digit
  for (char c : s) {
    if (c == '_') {
      if (saw != '0') return "parse error";
      saw = '_';
      continue;
    }
    int d;
    if (c >= '0' && c <= '9') d = c - '0';
    else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') d = (c | 0x20) - 'a' + 10;
    else return "parse error";
    if (d >= base) return "parse error";
    v = v * base + d;
    if (v > static_cast<unsigned __int128>(std::numeric_limits<int64_t>::max()) + 1)
      v = static_cast<unsigned __int128>(std::numeric_limits<int64_t>::max()) + 2;  // saturate
    any = true;
    saw = '0';
  }
  if (saw == '_') return "parse error";
  if (!any) {
    if (base == 8 && prefixed && s.empty()) return (out = 0, "");  // "0"
    return "parse error";
  }
  const auto limit = static_cast<unsigned __int128>(std::numeric_limits<int64_t>::max());
  if (neg ? v > limit + 1 : v > limit) {  // strconv.ParseInt returns the bound with its range error
    out = neg ? std::numeric_limits<int64_t>::min() : std::numeric_limits<int64_t>::max();
    return "value out of range";
  }
  out = neg ? static_cast<int64_t>(-static_cast<__int128>(v)) : static_cast<int64_t>(v);
  return "";
}

}  // namespace

void FlagSet::addString(std::string name, std::string* target) {
  flags_.push_back({std::move(name), Kind::String, target});
}
void FlagSet::addInt(std::string name, int64_t* target) {
  flags_.push_back({std::move(name), Kind::Int64, target});
}
void FlagSet::addInt(std::string name, int32_t* target) {
  flags_.push_back({std::move(name), Kind::Int32, target});
}
void FlagSet::addBool(std::string name, bool* target) {
  flags_.push_back({std::move(name), Kind::Bool, target});
}

FlagSet::Flag* FlagSet::find(std::string_view name) {
  for (auto& f : flags_)
    if (f.name == name) return &f;
  return nullptr;
}

Status FlagSet::fail(std::string message) const { return Status::error(owner_ + ": " + message); }

Status FlagSet::set(Flag& flag, std::string_view value) {
  const std::string v(value);
  switch (flag.kind) {
    case Kind::String:
      *static_cast<std::string*>(flag.target) = v;
      return Status::ok();
    // Like Go's boolValue.Set and intValue.Set, a bad value is still stored: false, 0, or the
    // bound a value out of range passed.
    case Kind::Bool: {
      bool b = false;
      const bool ok = parseGoBool(value, b);
      *static_cast<bool*>(flag.target) = ok && b;
      if (!ok) return fail("invalid boolean value \"" + v + "\" for -" + flag.name + ": parse error");
      return Status::ok();
    }
    case Kind::Int64:
    case Kind::Int32: {
      int64_t n = 0;
      std::string err = parseGoInt(value, n);
      if (err == "parse error") n = 0;
      if (flag.kind == Kind::Int64) {
        *static_cast<int64_t*>(flag.target) = n;
      } else {
        const int64_t clamped = std::clamp<int64_t>(n, std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::max());
        if (err.empty() && clamped != n) err = "value out of range";
        *static_cast<int32_t*>(flag.target) = static_cast<int32_t>(clamped);
      }
      if (!err.empty()) return fail("invalid value \"" + v + "\" for flag -" + flag.name + ": " + err);
      return Status::ok();
    }
  }
  return Status::ok();
}

Status FlagSet::parse(const std::vector<std::string>& args) {
  remaining_.clear();
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg.size() < 2 || arg[0] != '-') {  // non-flag: stop
      remaining_.assign(args.begin() + static_cast<long>(i), args.end());
      return Status::ok();
    }
    size_t dashes = 1;
    if (arg[1] == '-') {
      dashes = 2;
      if (arg.size() == 2) {  // "--" terminates the flags
        remaining_.assign(args.begin() + static_cast<long>(i) + 1, args.end());
        return Status::ok();
      }
    }
    std::string_view name = std::string_view(arg).substr(dashes);
    if (name.empty() || name[0] == '-' || name[0] == '=')
      return fail("bad flag syntax: " + arg);
    std::string_view value;
    bool hasValue = false;
    if (auto eq = name.find('='); eq != std::string_view::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
      hasValue = true;
    }
    Flag* flag = find(name);
    if (flag == nullptr && (name == "h" || name == "help")) return fail("flag: help requested");  // Go's ErrHelp
    if (flag == nullptr) return fail("flag provided but not defined: -" + std::string(name));
    if (flag->kind == Kind::Bool) {
      if (!hasValue) value = "true", hasValue = true;
    } else if (!hasValue) {
      if (i + 1 >= args.size()) return fail("flag needs an argument: -" + std::string(name));
      value = args[++i];
    }
    if (Status st = set(*flag, value); !st) return st;
  }
  return Status::ok();
}

}  // namespace jobhost
