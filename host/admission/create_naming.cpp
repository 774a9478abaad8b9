// The API server's create-time naming (apiserver's names.SimpleNameGenerator, apimachinery's
// ValidateObjectMeta with NameIsDNSSubdomain) for a Job read from a file.
#include "host/admission/create_naming.h"

#include <random>

#include "host/admission/field_errors.h"
#include "host/admission/pod_template_validation.h"
#include "host/workload/k8s_names.h"

namespace jobhost {
namespace {

constexpr std::string_view kAlphabet = "bcdfghjklmnpqrstvwxz2456789";
constexpr size_t kRandomLength = 5;
constexpr size_t kMaxPrefixLength = 63 - kRandomLength;

/// NameIsDNSSubdomain(prefix, true): maskTrailingDash, quirk included (it drops two bytes).
std::vector<std::string> prefixErrors(std::string_view prefix) {
  std::string masked(prefix);
  if (masked.size() > 1 && masked.back() == '-') masked = masked.substr(0, masked.size() - 2) + "a";
  return k8s::isDNS1123Subdomain(masked);
}

}  // namespace

std::string generatedName(std::string_view prefix) {
  thread_local std::mt19937 random{std::random_device{}()};
  std::uniform_int_distribution<size_t> pick(0, kAlphabet.size() - 1);
  std::string name(prefix.substr(0, kMaxPrefixLength));
  for (size_t i = 0; i < kRandomLength; ++i) name += kAlphabet[pick(random)];
  return name;
}

std::vector<FieldError> nameOnCreate(ObjectMeta& meta, std::string_view generateName) {
  k8s::FieldErrs errs;
  if (!generateName.empty()) {
    if (meta.name.empty()) meta.name = generatedName(generateName);
    k8s::invalidEach(errs, "metadata.generateName", k8s::value(generateName), prefixErrors(generateName));
  }
  k8s::validateObjectName(errs, meta.name);
  std::vector<FieldError> out;
  for (auto& e : errs) out.push_back({std::move(e.field), std::move(e.body)});
  return out;
}

}  // namespace jobhost
