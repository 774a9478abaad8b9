// Pod requests, limits and quota usage with Kubernetes' aggregation rules and Volcano's mirroring
// of extended "requests.X" keys.
#include "host/workload/resources.h"

#include <string>

#include "host/workload/json_quantity.h"
#include "host/workload/resource_names.h"

namespace jobhost {
namespace {

void maxInto(ResourceList& into, const ResourceList& other) {
  for (const auto& [name, q] : other) {
    auto it = into.find(name);
    if (it == into.end())
      into.emplace(name, q);
    else if (q > it->second)
      it->second = q;
  }
}

// A container's own need: its requests (optionally defaulted from limits) or its limits.
using NeedFn = void (*)(const Container&, ResourceList&);

void requestsAsPod(const Container& c, ResourceList& out) {
  out = c.resources.requests;
  for (const auto& [name, q] : c.resources.limits) out.emplace(name, q);  // keeps existing requests
}
void requestsAsWritten(const Container& c, ResourceList& out) { out = c.resources.requests; }
void limitsOf(const Container& c, ResourceList& out) { out = c.resources.limits; }

// resource.AggregateContainerRequests / AggregateContainerLimits.
ResourceList aggregate(const PodSpec& spec, NeedFn need) {
  ResourceList total, own;
  for (const auto& c : spec.containers) {
    need(c, own);
    addResources(total, own);
  }
  ResourceList sidecars, initPeak;
  for (const auto& c : spec.initContainers) {
    need(c, own);
    if (isRestartableInitContainer(c)) {
      addResources(total, own);
      addResources(sidecars, own);
      maxInto(initPeak, sidecars);
    } else {
      addResources(own, sidecars);
      maxInto(initPeak, own);
    }
  }
  maxInto(total, initPeak);
  return total;
}

void copyIfPresent(const ResourceList& from, std::string_view key, ResourceList& to,
                   std::initializer_list<std::string_view> names) {
  auto it = from.find(std::string(key));
  if (it == from.end()) return;
  for (auto n : names) to.insert_or_assign(std::string(n), it->second);
}

}  // namespace

bool isRestartableInitContainer(const Container& container) {
  for (const auto& [key, json] : container.unknown)
    if (key == "restartPolicy") return json == "\"Always\"";
  return false;
}

ResourceList podOverhead(const PodSpec& spec) {
  auto json = unknownFieldJson(spec.unknown, "overhead");
  return json ? jsonResourceList(*json) : ResourceList{};
}

ResourceList aggregateContainerRequests(const PodSpec& spec, LimitDefaulting defaulting) {
  return aggregate(spec, defaulting == LimitDefaulting::Apply ? requestsAsPod : requestsAsWritten);
}

ResourceList podRequests(const PodSpec& spec, LimitDefaulting defaulting) {
  ResourceList requests = aggregateContainerRequests(spec, defaulting);
  addResources(requests, podOverhead(spec));
  return requests;
}

ResourceList podLimits(const PodSpec& spec) {
  ResourceList limits = aggregate(spec, limitsOf);
  for (const auto& [name, q] : podOverhead(spec))  // only onto resources that have a limit
    if (auto it = limits.find(name); it != limits.end()) it->second += q;
  return limits;
}

ResourceList podQuotaUsage(const PodSpec& spec) {
  const ResourceList requests = podRequests(spec, LimitDefaulting::Skip);
  const ResourceList limits = podLimits(spec);
  const Quantity one = Quantity::fromMilli(1000);
  ResourceList usage{{"count/pods", one}, {"pods", one}};
  copyIfPresent(requests, "cpu", usage, {"cpu", "requests.cpu"});
  copyIfPresent(limits, "cpu", usage, {"limits.cpu"});
  copyIfPresent(requests, "memory", usage, {"memory", "requests.memory"});
  copyIfPresent(limits, "memory", usage, {"limits.memory"});
  copyIfPresent(requests, "ephemeral-storage", usage, {"ephemeral-storage", "requests.ephemeral-storage"});
  copyIfPresent(limits, "ephemeral-storage", usage, {"limits.ephemeral-storage"});
  for (const auto& [name, q] : requests) {
    if (k8s::isHugePageResourceName(name)) {
      usage.insert_or_assign(name, q);
      usage.insert_or_assign(std::string(k8s::kRequestsPrefix) + name, q);
    }
    if (k8s::isExtendedResourceName(name)) {
      usage.insert_or_assign(std::string(k8s::kRequestsPrefix) + name, q);
      usage.insert_or_assign(name, q);  // Volcano mirrors requests.X to X for extended resources
    }
  }
  return usage;
}

}  // namespace jobhost
