// Hand-written matchers for apimachinery's name regular expressions and its exact messages
// (content.IsLabelKey, IsDNS1123Label, IsDNS1123Subdomain, IsValidPortName, IsEnvVarName, ...).
#include "host/workload/k8s_names.h"

namespace jobhost::k8s {
namespace {

constexpr std::string_view kQualifiedNameFmt = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
constexpr std::string_view kQualifiedNameErr =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
    "alphanumeric character";
constexpr std::string_view kLabelFmt = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
constexpr std::string_view kLabelErr =
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must "
    "start and end with an alphanumeric character";
constexpr std::string_view kSubdomainFmt = "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
constexpr std::string_view kSubdomainErr =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', "
    "and must start and end with an alphanumeric character";
constexpr std::string_view kEnvFmt = "[-._a-zA-Z][-._a-zA-Z0-9]*";
constexpr std::string_view kEnvErr =
    "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or "
    "'.', and must not start with a digit";
constexpr std::string_view kConfigKeyFmt = "[-._a-zA-Z0-9]+";
constexpr std::string_view kConfigKeyErr =
    "a valid config key must consist of alphanumeric characters, '-', '_' or '.'";
constexpr std::string_view kLabelValueFmt = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
constexpr std::string_view kLabelValueErr =
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', "
    "and must start and end with an alphanumeric character";

bool isLower(char c) { return c >= 'a' && c <= 'z'; }
bool isUpper(char c) { return c >= 'A' && c <= 'Z'; }
bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isAlnum(char c) { return isLower(c) || isUpper(c) || isDigit(c); }
bool isLowerAlnum(char c) { return isLower(c) || isDigit(c); }

std::string maxLenError(size_t n) { return "must be no more than " + std::to_string(n) + " bytes"; }

// apimachinery RegexError: examples are each followed by ", " and joined by " or ".
std::string regexError(std::string_view msg, std::string_view fmt, std::initializer_list<std::string_view> examples) {
  std::string out(msg);
  if (examples.size() == 0) return out + " (regex used for validation is '" + std::string(fmt) + "')";
  out += " (e.g. ";
  bool first = true;
  for (auto e : examples) {
    if (!first) out += " or ";
    first = false;
    out.append("'").append(e).append("', ");
  }
  out.append("regex used for validation is '").append(fmt).append("')");
  return out;
}

bool matchesQualifiedNamePart(std::string_view s) {
  if (s.empty() || !isAlnum(s.front()) || !isAlnum(s.back())) return false;
  for (char c : s)
    if (!isAlnum(c) && c != '-' && c != '_' && c != '.') return false;
  return true;
}

std::vector<std::string> hasChDirPrefix(std::string_view value) {
  if (value == ".") return {"must not be '.'"};
  if (value == "..") return {"must not be '..'"};
  if (value.substr(0, 2) == "..") return {"must not start with '..'"};
  return {};
}

}  // namespace

bool matchesDNS1123Label(std::string_view s) {
  if (s.empty() || !isLowerAlnum(s.front()) || !isLowerAlnum(s.back())) return false;
  for (char c : s)
    if (!isLowerAlnum(c) && c != '-') return false;
  return true;
}

bool matchesDNS1123Subdomain(std::string_view s) {
  size_t start = 0;
  while (true) {
    size_t dot = s.find('.', start);
    if (!matchesDNS1123Label(s.substr(start, dot == std::string_view::npos ? dot : dot - start))) return false;
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

std::vector<std::string> isQualifiedName(std::string_view value) {
  std::vector<std::string> errs;
  std::string_view name = value;
  const size_t slash = value.find('/');
  if (slash != std::string_view::npos) {
    if (value.find('/', slash + 1) != std::string_view::npos) {
      errs.push_back("a valid label key " +
                     regexError(kQualifiedNameErr, kQualifiedNameFmt, {"MyName", "my.name", "123-abc"}) +
                     " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
      return errs;
    }
    std::string_view prefix = value.substr(0, slash);
    name = value.substr(slash + 1);
    if (prefix.empty()) {
      errs.push_back("prefix part must be non-empty");
    } else {
      for (auto& m : isDNS1123Subdomain(prefix)) errs.push_back("prefix part " + m);
    }
  }
  if (name.empty())
    errs.push_back("name part must be non-empty");
  else if (name.size() > 63)
    errs.push_back("name part " + maxLenError(63));
  if (!matchesQualifiedNamePart(name))
    errs.push_back("name part " + regexError(kQualifiedNameErr, kQualifiedNameFmt, {"MyName", "my.name", "123-abc"}));
  return errs;
}

std::vector<std::string> isDNS1123Label(std::string_view value) {
  std::vector<std::string> errs;
  if (value.size() > 63) errs.push_back(maxLenError(63));
  if (!matchesDNS1123Label(value)) {
    if (matchesDNS1123Subdomain(value))
      errs.push_back("must not contain dots");
    else
      errs.push_back(regexError(kLabelErr, kLabelFmt, {"my-name", "123-abc"}));
  }
  return errs;
}

std::vector<std::string> isDNS1123Subdomain(std::string_view value) {
  std::vector<std::string> errs;
  if (value.size() > 253) errs.push_back(maxLenError(253));
  if (!matchesDNS1123Subdomain(value)) errs.push_back(regexError(kSubdomainErr, kSubdomainFmt, {"example.com"}));
  return errs;
}

std::vector<std::string> isValidPortName(std::string_view port) {
  std::vector<std::string> errs;
  if (port.size() > 15) errs.push_back(maxLenError(15));
  bool charset = !port.empty(), letter = false;
  for (char c : port) {
    if (!isLowerAlnum(c) && c != '-') charset = false;
    if (isLower(c)) letter = true;
  }
  if (!charset) errs.push_back("must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)");
  if (!letter) errs.push_back("must contain at least one letter (a-z)");
  if (port.find("--") != std::string_view::npos) errs.push_back("must not contain consecutive hyphens");
  if (!port.empty() && (port.front() == '-' || port.back() == '-'))
    errs.push_back("must not begin or end with a hyphen");
  return errs;
}

std::vector<std::string> isValidPortNum(int64_t port) {
  if (port >= 1 && port <= 65535) return {};
  return {"must be between 1 and 65535, inclusive"};
}

std::vector<std::string> isEnvVarName(std::string_view value) {
  std::vector<std::string> errs;
  bool ok = !value.empty() && !isDigit(value.front());
  for (char c : value)
    if (!isAlnum(c) && c != '-' && c != '.' && c != '_') ok = false;
  if (!ok) errs.push_back(regexError(kEnvErr, kEnvFmt, {"my.env-name", "MY_ENV.NAME", "MyEnvName1"}));
  for (auto& m : hasChDirPrefix(value)) errs.push_back(std::move(m));
  return errs;
}

std::vector<std::string> isConfigMapKey(std::string_view value) {
  std::vector<std::string> errs;
  if (value.size() > 253) errs.push_back(maxLenError(253));
  bool ok = !value.empty();
  for (char c : value)
    if (!isAlnum(c) && c != '-' && c != '.' && c != '_') ok = false;
  if (!ok) errs.push_back(regexError(kConfigKeyErr, kConfigKeyFmt, {"key.name", "KEY_NAME", "key-name"}));
  for (auto& m : hasChDirPrefix(value)) errs.push_back(std::move(m));
  return errs;
}

std::vector<std::string> isLabelValue(std::string_view value) {
  std::vector<std::string> errs;
  if (value.size() > 63) errs.push_back(maxLenError(63));
  if (!value.empty() && !matchesQualifiedNamePart(value))
    errs.push_back(regexError(kLabelValueErr, kLabelValueFmt, {"MyValue", "my_value", "12345"}));
  return errs;
}

}  // namespace jobhost::k8s
