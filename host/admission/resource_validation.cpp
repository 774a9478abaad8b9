// Resource names, quantities and request/limit rules of Kubernetes' validation, for containers and
// for pod-level resources. Go map iteration is replaced by name order, so errors are deterministic.
#include "host/admission/resource_validation.h"

#include <optional>
#include <set>

#include <rapidjson/document.h>

#include "host/workload/json_quantity.h"
#include "host/workload/k8s_names.h"
#include "host/workload/resource_names.h"
#include "host/workload/resources.h"

namespace jobhost::k8s {
namespace {

using JsonValue = rapidjson::Value;

// validateResourceName: true when it found nothing (Kubernetes returns at its first failure).
bool validateResourceName(const std::string& name, const std::string& path, FieldErrs& out) {
  const auto msgs = isQualifiedName(name);
  if (!msgs.empty()) {
    invalidEach(out, path, value(name), msgs);
    return false;
  }
  if (name.find('/') == std::string::npos && !isStandardResourceName(name)) {
    out.push_back(invalid(path, value(name), "must be a standard resource type or fully qualified"));
    return false;
  }
  return true;
}

void validateQuantity(const std::string& name, const Quantity& q, const std::string& path, FieldErrs& out) {
  if (q.milliValue() < 0) out.push_back(invalid(path, value(q.toString()), "must be greater than or equal to 0"));
  if (isIntegerResourceName(name) && q.milliValue() % 1000 != 0)
    out.push_back(invalid(path, value(q.toString()), "must be an integer"));
}

// validateResourceQuantityHugePageValue (indivisible values are not allowed on create).
void validateHugePageValue(const std::string& name, const Quantity& q, const std::string& path, FieldErrs& out) {
  if (!isHugePageResourceName(name)) return;
  const auto page = Quantity::parse(std::string_view(name).substr(kHugePagesPrefix.size()));
  const bool divisible = page && page->milliValue() > 0 && page->milliValue() % 1000 == 0 &&
                         q.value() % page->value() == 0;
  if (!divisible)
    out.push_back(invalid(path, value(q.toString()), q.toString() + " is not positive integer multiple of " + name));
}

ResourceList memberList(const JsonValue& object, const char* member) {
  return object.HasMember(member) ? jsonResourceList(object[member]) : ResourceList{};
}

std::string stringMember(const JsonValue& object, const char* member) {
  if (!object.IsObject() || !object.HasMember(member) || !object[member].IsString()) return {};
  return {object[member].GetString(), object[member].GetStringLength()};
}

// The names of spec.resourceClaims (unmodelled, kept as JSON), sorted like sets.List.
std::set<std::string> podClaimNames(const PodSpec& spec) {
  std::set<std::string> names;
  const auto doc = unknownFieldJson(spec.unknown, "resourceClaims");
  if (!doc || !doc->IsArray()) return names;
  for (const auto& claim : doc->GetArray())
    if (auto name = stringMember(claim, "name"); !name.empty()) names.insert(name);
  return names;
}

// validateResourceClaimNames: each claim names an entry of spec.resourceClaims, once.
void validateClaimNames(const JsonValue& claims, const std::set<std::string>& podClaims, const std::string& path,
                        FieldErrs& out) {
  if (!claims.IsArray()) return;
  std::set<std::string> seen;
  for (size_t i = 0; i < claims.Size(); ++i) {
    const std::string idx = index(path, i), name = stringMember(claims[i], "name");
    const std::string request = stringMember(claims[i], "request");
    if (name.empty()) {
      out.push_back(required(idx));
      continue;
    }
    if (seen.count(name)) {
      out.push_back(duplicate(idx, value(name)));
    } else {
      std::string claimKey = name;
      if (!request.empty()) {
        invalidEach(out, child(idx, "request"), value(request), isDNS1123Label(request));
        claimKey += "/" + request;
      }
      if (seen.count(claimKey)) {
        out.push_back(duplicate(idx, value(claimKey)));
      } else if (request.empty()) {
        for (const auto& earlier : seen)
          if (earlier.rfind(name + "/", 0) == 0) out.push_back(duplicate(idx, value(name)));
      }
      seen.insert(claimKey);
    }
    if (!podClaims.count(name)) {
      std::string detail = "must be one of the names in pod.spec.resourceClaims";
      if (podClaims.empty()) detail += " which is empty";
      for (auto it = podClaims.begin(); it != podClaims.end(); ++it)
        detail += (it == podClaims.begin() ? ": " : ", ") + *it;
      out.push_back({idx, "Not found: " + value(name) + ": " + detail});
    }
  }
}

// validatePodResourceConsistency.
void validateConsistency(const PodSpec& spec, const ResourceRequirements& pod, const std::string& path,
                         FieldErrs& out) {
  const std::string reqPath = child(path, "requests");
  for (const auto& [name, aggregate] : aggregateContainerRequests(spec, LimitDefaulting::Skip)) {
    auto it = pod.requests.find(name);
    const Quantity requested = it == pod.requests.end() ? Quantity() : it->second;
    if (aggregate > requested)
      out.push_back(invalid(key(reqPath, name), value(requested.toString()),
                            "must be greater than or equal to aggregate container requests of " + aggregate.toString()));
  }
  for (size_t i = 0; i < spec.containers.size(); ++i) {
    for (const auto& [name, limit] : spec.containers[i].resources.limits) {
      auto it = pod.limits.find(name);
      if (it == pod.limits.end() || !(limit > it->second)) continue;
      // Kubernetes builds this path as resources.containers[i][name].limits.
      out.push_back(invalid(child(key(index(child(path, "containers"), i), name), "limits"), value(limit.toString()),
                            "must be less than or equal to pod limits of " + it->second.toString()));
    }
  }
}

}  // namespace

void validateContainerResourceName(const std::string& name, const std::string& path, FieldErrs& out) {
  validateResourceName(name, path, out);
  if (name.find('/') == std::string::npos) {
    if (!isStandardContainerResourceName(name))
      out.push_back(invalid(path, value(name), "must be a standard resource for containers"));
  } else if (!isNativeResource(name) && !isExtendedResourceName(name)) {
    out.push_back(invalid(path, value(name), "doesn't have a valid extended resource name"));
  }
}

void validatePodResourceName(const std::string& name, const std::string& path, FieldErrs& out) {
  if (!validateResourceName(name, path, out)) return;
  if (name != "cpu" && name != "memory" && !isHugePageResourceName(name))
    out.push_back(notSupported(path, value(name), {"cpu", "hugepages-", "memory"}));
}

void validateResourceRequirements(const ResourceRequirements& r, ResourceNameCheck checkName, const std::string& path,
                                  FieldErrs& out) {
  const std::string limPath = child(path, "limits"), reqPath = child(path, "requests");
  bool cpuOrMemory = false, hugePages = false;
  for (const auto& [name, q] : r.limits) {
    const std::string fld = key(limPath, name);
    checkName(name, fld, out);
    validateQuantity(name, q, fld, out);
    validateHugePageValue(name, q, fld, out);
    hugePages |= isHugePageResourceName(name);
    cpuOrMemory |= name == "cpu" || name == "memory";
  }
  for (const auto& [name, q] : r.requests) {
    const std::string fld = key(reqPath, name);
    checkName(name, fld, out);
    validateQuantity(name, q, fld, out);
    auto lim = r.limits.find(name);
    if (lim != r.limits.end()) {
      if (q != lim->second && !isOvercommitAllowed(name))
        out.push_back(invalid(reqPath, value(q.toString()), "must be equal to " + name + " limit of " + lim->second.toString()));
      else if (q > lim->second)
        out.push_back(invalid(reqPath, value(q.toString()),
                              "must be less than or equal to " + name + " limit of " + lim->second.toString()));
    } else if (!isOvercommitAllowed(name)) {
      out.push_back(required(limPath, "Limit must be set for non overcommitable resources"));
    }
    validateHugePageValue(name, q, fld, out);
    hugePages |= isHugePageResourceName(name);
    cpuOrMemory |= name == "cpu" || name == "memory";
  }
  if (hugePages && !cpuOrMemory) out.push_back(forbidden(path, "HugePages require cpu or memory"));
}

void validatePodResources(const PodSpec& spec, const std::string& path, FieldErrs& out) {
  const auto json = unknownFieldJson(spec.unknown, "resources");
  if (!json || !json->IsObject()) return;  // absent or null: no pod-level resources
  const rapidjson::Document& doc = *json;
  ResourceRequirements pod;
  pod.requests = memberList(doc, "requests");
  pod.limits = memberList(doc, "limits");
  const bool hasClaims = doc.HasMember("claims") && !doc["claims"].IsNull();
  if (hasClaims) out.push_back(forbidden(child(path, "claims"), "claims cannot be set for Resources at pod-level"));
  validateResourceRequirements(pod, validatePodResourceName, path, out);
  if (hasClaims) validateClaimNames(doc["claims"], podClaimNames(spec), child(path, "claims"), out);
  validateConsistency(spec, pod, path, out);
}

void validateOverhead(const PodSpec& spec, const std::string& path, FieldErrs& out) {
  ResourceRequirements asLimits;
  asLimits.limits = podOverhead(spec);
  validateResourceRequirements(asLimits, validateContainerResourceName, path, out);
}

}  // namespace jobhost::k8s
