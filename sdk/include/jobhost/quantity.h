// Kubernetes resource quantities ("500m", "2Gi", "1.5", "1e3"): parse, compare, add, format.
// Values are held exactly as integer milli-units, which covers every quantity a pod spec uses.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace jobhost {

/// A Kubernetes quantity held as an exact count of milli-units (1 CPU == 1000, 1Ki == 1024000).
/// Thread-safe as a value; all members are pure functions.
class Quantity {
 public:
  enum class Format { DecimalSI, BinarySI, DecimalExponent };

  Quantity() = default;
  static Quantity fromMilli(int64_t milli, Format format = Format::DecimalSI) {
    Quantity q;
    q.milli_ = milli;
    q.format_ = format;
    return q;
  }

  /// Parses Kubernetes quantity syntax. Returns nullopt and fills *error (when given) with what is
  /// wrong when the text is not a quantity or does not fit in 64-bit milli-units.
  static std::optional<Quantity> parse(std::string_view text, std::string* error = nullptr);

  int64_t milliValue() const { return milli_; }
  /// Whole units rounded up, like resource.Quantity.Value(): 2.5 -> 3, 0.7 -> 1, 100m -> 1.
  int64_t value() const;
  bool isZero() const { return milli_ == 0; }
  Format format() const { return format_; }

  /// Canonical Kubernetes form in this quantity's format: "500m", "2Gi", "1500M", "3".
  std::string toString() const;

  /// As resource.Quantity.Add: a zero takes the format of what is added to it.
  Quantity& operator+=(const Quantity& other) {
    if (milli_ == 0) format_ = other.format_;
    milli_ += other.milli_;
    return *this;
  }
  friend Quantity operator+(Quantity a, const Quantity& b) { return a += b; }
  Quantity multipliedBy(int64_t n) const { return fromMilli(milli_ * n, format_); }
  friend bool operator==(const Quantity& a, const Quantity& b) { return a.milli_ == b.milli_; }
  friend auto operator<=>(const Quantity& a, const Quantity& b) { return a.milli_ <=> b.milli_; }

 private:
  int64_t milli_ = 0;
  Format format_ = Format::DecimalSI;
};

/// A resource name -> quantity map ("cpu", "memory", "nvidia.com/gpu", ...), sorted by name.
using ResourceList = std::map<std::string, Quantity>;

/// Adds every entry of `add` into `into` (missing names are inserted).
void addResources(ResourceList& into, const ResourceList& add);

}  // namespace jobhost
