// Kubernetes quantity parsing and canonical formatting (k8s.io/apimachinery resource.Quantity),
// held exactly as int64 milli-units; sub-milli values round up like MilliValue().
#include "jobhost/quantity.h"

#include <cctype>

namespace jobhost {
namespace {

using i128 = __int128;
constexpr i128 kMax = INT64_MAX;
constexpr i128 kSignificandLimit = static_cast<i128>(10000000000000000000ULL);  // 10^19

bool fail(std::string* error, std::string message) {
  if (error != nullptr) *error = std::move(message);
  return false;
}

i128 pow10(int n) {
  i128 r = 1;
  while (n-- > 0) r *= 10;
  return r;
}

// Parses the suffix into (base, exponent, format): value = number * base^exponent.
bool parseSuffix(std::string_view s, int& base, int& exp, Quantity::Format& fmt, std::string* err) {
  fmt = Quantity::Format::DecimalSI;
  base = 10;
  if (s.empty()) return (exp = 0, true);
  if (s.size() == 2 && s[1] == 'i') {
    static constexpr std::string_view kBin = "KMGTPE";
    auto pos = kBin.find(s[0]);
    if (pos == std::string_view::npos) return fail(err, "unknown binary suffix");
    base = 2;
    exp = 10 * static_cast<int>(pos + 1);
    fmt = Quantity::Format::BinarySI;
    return true;
  }
  if (s.size() == 1) {
    switch (s[0]) {
      case 'n': exp = -9; return true;
      case 'u': exp = -6; return true;
      case 'm': exp = -3; return true;
      case 'k': exp = 3; return true;
      case 'M': exp = 6; return true;
      case 'G': exp = 9; return true;
      case 'T': exp = 12; return true;
      case 'P': exp = 15; return true;
      case 'E': exp = 18; return true;
      default: return fail(err, "unknown suffix");
    }
  }
  if (s[0] == 'e' || s[0] == 'E') {
    std::string_view rest = s.substr(1);
    bool neg = false;
    if (!rest.empty() && (rest[0] == '+' || rest[0] == '-')) {
      neg = rest[0] == '-';
      rest.remove_prefix(1);
    }
    if (rest.empty() || rest.size() > 4) return fail(err, "bad exponent");
    int v = 0;
    for (char c : rest) {
      if (!std::isdigit(static_cast<unsigned char>(c))) return fail(err, "bad exponent");
      v = v * 10 + (c - '0');
    }
    exp = neg ? -v : v;
    fmt = Quantity::Format::DecimalExponent;
    return true;
  }
  return fail(err, "unknown suffix");
}

}  // namespace

std::optional<Quantity> Quantity::parse(std::string_view text, std::string* error) {
  const std::string_view original = text;
  auto bad = [&](const std::string& why) -> std::optional<Quantity> {
    fail(error, "quantity \"" + std::string(original) + "\" is invalid (" + why +
                    "); use a number with an optional suffix such as 500m, 2Gi or 1.5");
    return std::nullopt;
  };
  if (text.empty()) return bad("empty");
  bool negative = false;
  if (text[0] == '+' || text[0] == '-') {
    negative = text[0] == '-';
    text.remove_prefix(1);
  }
  // The number is kept as a significand of at most 20 digits times 10^scale; digits past that
  // precision only set `sticky`, so the result still rounds up like resource.Quantity does.
  i128 significand = 0;
  int scale = 0, count = 0;
  bool seenDot = false, sticky = false;
  size_t i = 0;
  for (; i < text.size(); ++i) {
    char c = text[i];
    if (c == '.') {
      if (seenDot) return bad("two decimal points");
      seenDot = true;
      continue;
    }
    if (!std::isdigit(static_cast<unsigned char>(c))) break;
    ++count;
    if (significand < kSignificandLimit) {
      significand = significand * 10 + (c - '0');
      if (seenDot) --scale;
    } else {
      if (!seenDot) ++scale;
      sticky = sticky || c != '0';
    }
  }
  if (count == 0) return bad("no digits");
  int base = 10, exp = 0;
  Format fmt = Format::DecimalSI;
  std::string why;
  if (!parseSuffix(text.substr(i), base, exp, fmt, &why)) return bad(why);

  // value in milli = significand * 2^binaryExp * 10^decimalExp, rounded up.
  const int binaryExp = base == 2 ? exp : 0;
  const int decimalExp = scale + 3 + (base == 10 ? exp : 0);
  i128 num = significand;
  for (int k = 0; k < binaryExp; ++k) num *= 2;  // < 10^20 * 2^60, fits
  i128 milli = 0;
  if (decimalExp >= 0) {
    for (int k = 0; k < decimalExp && num <= kMax; ++k) num *= 10;
    milli = num + (sticky ? 1 : 0);
  } else if (-decimalExp > 38) {
    milli = (num != 0 || sticky) ? 1 : 0;
  } else {
    const i128 den = pow10(-decimalExp);
    milli = num / den + ((num % den != 0 || sticky) ? 1 : 0);
  }
  if (milli > kMax) return bad("too large");
  Quantity q = fromMilli(static_cast<int64_t>(negative ? -milli : milli), fmt);
  return q;
}

int64_t Quantity::value() const {
  if (milli_ >= 0) return (milli_ + 999) / 1000;
  return milli_ / 1000;  // rounds toward zero, i.e. up, for negatives
}

std::string Quantity::toString() const {
  if (milli_ == 0) return "0";
  const bool neg = milli_ < 0;
  const int64_t abs = neg ? -milli_ : milli_;
  const std::string sign = neg ? "-" : "";
  if (abs % 1000 != 0) {
    if (format_ == Format::DecimalExponent) return sign + std::to_string(abs) + "e-3";
    return sign + std::to_string(abs) + "m";
  }
  int64_t v = abs / 1000;
  if (format_ == Format::BinarySI && v >= 1024) {
    static const char* kBin[] = {"", "Ki", "Mi", "Gi", "Ti", "Pi", "Ei"};
    int k = 0;
    while (k < 6 && v % 1024 == 0) {
      v /= 1024;
      ++k;
    }
    return sign + std::to_string(v) + kBin[k];
  }
  int k = 0;
  while (k < 6 && v % 1000 == 0) {
    v /= 1000;
    ++k;
  }
  if (format_ == Format::DecimalExponent)
    return sign + std::to_string(v) + (k == 0 ? "" : "e" + std::to_string(3 * k));
  static const char* kDec[] = {"", "k", "M", "G", "T", "P", "E"};
  return sign + std::to_string(v) + kDec[k];
}

void addResources(ResourceList& into, const ResourceList& add) {
  for (const auto& [name, q] : add) {
    auto it = into.find(name);
    if (it == into.end())
      into.emplace(name, q);
    else
      it->second += q;
  }
}

}  // namespace jobhost
