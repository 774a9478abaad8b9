// Kubernetes JSON for the objects a job creates besides pods: PodGroup, ConfigMap, Secret (base64,
// redacted by default), Service and NetworkPolicy; plus label selectors and network topology.
#include <charconv>

#include "host/spec/base64.h"
#include "host/spec/encode.h"
#include "host/spec/encode_parts.h"

namespace jobhost {
namespace {

using Value = rapidjson::Value;
constexpr std::string_view kRedacted = "<redacted>";

Value encodeSubGroupPolicy(const SubGroupPolicy& p, JsonAllocator& a) {
  JsonObject out(a);
  out.string("name", p.name).integer("subGroupSize", p.subGroupSize).integer("minSubGroups", p.minSubGroups);
  if (!(p.labelSelector == LabelSelector{})) out.set("labelSelector", encodeLabelSelector(p.labelSelector, a));
  out.setIfSet("matchLabelKeys", jsonStrings(p.matchLabelKeys, a));
  if (p.networkTopology) out.set("networkTopology", encodeNetworkTopology(*p.networkTopology, a));
  return out.take();
}

Value encodePodGroupCondition(const PodGroupCondition& c, JsonAllocator& a) {
  JsonObject out(a);
  out.stringIfSet("type", c.type).stringIfSet("status", c.status);
  if (c.lastTransitionTime != 0) out.timeIfSet("lastTransitionTime", c.lastTransitionTime);
  return out.stringIfSet("reason", c.reason).stringIfSet("message", c.message).take();
}

Value encodePodGroupSpec(const PodGroup::Spec& s, JsonAllocator& a) {
  JsonObject out(a);
  out.integer("minMember", s.minMember);
  if (s.minTaskMemberSet || !s.minTaskMember.empty()) {
    Value members(rapidjson::kObjectType);
    for (const auto& [task, count] : s.minTaskMember) members.AddMember(jsonString(task, a), Value(count), a);
    out.set("minTaskMember", std::move(members));
  }
  out.stringIfSet("queue", s.queue).stringIfSet("priorityClassName", s.priorityClassName);
  if (s.minResources) out.set("minResources", jsonResources(*s.minResources, a));
  if (s.networkTopology) out.set("networkTopology", encodeNetworkTopology(*s.networkTopology, a));
  out.setIfSet("subGroupPolicy", jsonArray(s.subGroupPolicy, a, encodeSubGroupPolicy));
  return out.integerIfSet("scheduleTimeoutSeconds", s.scheduleTimeoutSeconds).take();
}

Value encodeServicePort(const ServicePort& p, JsonAllocator& a) {
  JsonObject out(a);
  out.stringIfSet("name", p.name).stringIfSet("protocol", p.protocol).integer("port", p.port);
  // targetPort is an IntOrString: digits are a port number, anything else a port name.
  int32_t number = 0;
  const char* end = p.targetPort.data() + p.targetPort.size();
  auto [stop, ec] = std::from_chars(p.targetPort.data(), end, number);
  bool numeric = !p.targetPort.empty() && ec == std::errc() && stop == end && p.targetPort[0] != '-';
  if (numeric) out.integer("targetPort", number);
  else out.stringIfSet("targetPort", p.targetPort);
  return out.take();
}

Value encodePeer(const NetworkPolicyPeer& peer, JsonAllocator& a) {
  JsonObject out(a);
  if (peer.podSelector) out.set("podSelector", encodeLabelSelector(*peer.podSelector, a));
  if (peer.namespaceSelector) out.set("namespaceSelector", encodeLabelSelector(*peer.namespaceSelector, a));
  return out.take();
}

Value encodeIngressRule(const NetworkPolicyIngressRule& rule, JsonAllocator& a) {
  return JsonObject(a).setIfSet("from", jsonArray(rule.from, a, encodePeer)).take();
}

}  // namespace

Value encodeLabelSelector(const LabelSelector& selector, JsonAllocator& a) {
  return JsonObject(a).setIfSet("matchLabels", jsonStringMap(selector.matchLabels, a)).merge(selector.unknown).take();
}

Value encodeNetworkTopology(const NetworkTopologySpec& t, JsonAllocator& a) {
  return JsonObject(a)
      .stringIfSet("mode", t.mode)
      .integerIfSet("highestTierAllowed", t.highestTierAllowed)
      .stringIfSet("highestTierName", t.highestTierName)
      .take();
}

Value encodePodGroup(const PodGroup& pg, JsonAllocator& a) {
  JsonObject out(a);
  out.string("apiVersion", "scheduling.volcano.sh/v1beta1")
      .string("kind", "PodGroup")
      .set("metadata", encodeObjectMeta(pg.metadata, a))
      .set("spec", encodePodGroupSpec(pg.spec, a));
  if (!(pg.status == PodGroup::Status{}))
    out.set("status", JsonObject(a)
                          .stringIfSet("phase", pg.status.phase)
                          .setIfSet("conditions", jsonArray(pg.status.conditions, a, encodePodGroupCondition))
                          .integerIfSet("running", pg.status.running)
                          .integerIfSet("succeeded", pg.status.succeeded)
                          .integerIfSet("failed", pg.status.failed)
                          .take());
  return out.take();
}

Value encodeConfigMap(const ConfigMap& cm, JsonAllocator& a) {
  return JsonObject(a)
      .string("apiVersion", "v1")
      .string("kind", "ConfigMap")
      .set("metadata", encodeObjectMeta(cm.metadata, a))
      .setIfSet("data", jsonStringMap(cm.data, a))
      .take();
}

Value encodePersistentVolumeClaim(const ObjectMeta& meta, std::string_view spec, JsonAllocator& a) {
  return JsonObject(a)
      .string("apiVersion", "v1")
      .string("kind", "PersistentVolumeClaim")
      .set("metadata", encodeObjectMeta(meta, a))
      .set("spec", jsonFromText(spec, a))
      .take();
}

Value encodeSecret(const Secret& secret, JsonAllocator& a, EncodeOptions options) {
  Value data(rapidjson::kObjectType);
  for (const auto& [key, bytes] : secret.data)
    data.AddMember(jsonString(key, a), jsonString(base64Encode(options.redactSecrets ? kRedacted : bytes), a), a);
  return JsonObject(a)
      .string("apiVersion", "v1")
      .string("kind", "Secret")
      .set("metadata", encodeObjectMeta(secret.metadata, a))
      .booleanIfSet("immutable", secret.immutable)
      .setIfSet("data", std::move(data))
      .stringIfSet("type", secret.type)
      .take();
}

Value encodeService(const Service& service, JsonAllocator& a) {
  const auto& s = service.spec;
  return JsonObject(a)
      .string("apiVersion", "v1")
      .string("kind", "Service")
      .set("metadata", encodeObjectMeta(service.metadata, a))
      .set("spec", JsonObject(a)
                       .setIfSet("ports", jsonArray(s.ports, a, encodeServicePort))
                       .setIfSet("selector", jsonStringMap(s.selector, a))
                       .stringIfSet("clusterIP", s.clusterIP)
                       .stringIfSet("type", s.type)
                       .booleanIfTrue("publishNotReadyAddresses", s.publishNotReadyAddresses)
                       .take())
      .take();
}

Value encodeNetworkPolicy(const NetworkPolicy& policy, JsonAllocator& a) {
  const auto& s = policy.spec;
  return JsonObject(a)
      .string("apiVersion", "networking.k8s.io/v1")
      .string("kind", "NetworkPolicy")
      .set("metadata", encodeObjectMeta(policy.metadata, a))
      .set("spec", JsonObject(a)
                       .set("podSelector", encodeLabelSelector(s.podSelector, a))
                       .setIfSet("ingress", jsonArray(s.ingress, a, encodeIngressRule))
                       .setIfSet("policyTypes", jsonStrings(s.policyTypes, a))
                       .take())
      .take();
}

}  // namespace jobhost
