// Kubernetes JSON for ObjectMeta, pod templates and Pods: containers, env, ports, resources,
// mounts, volumes and pod status, in Kubernetes field order with omitempty.
#include "host/spec/encode.h"
#include "host/spec/encode_parts.h"

namespace jobhost {
namespace {

using Value = rapidjson::Value;

Value encodeOwnerReference(const OwnerReference& ref, JsonAllocator& a) {
  return JsonObject(a)
      .string("apiVersion", ref.apiVersion)
      .string("kind", ref.kind)
      .string("name", ref.name)
      .string("uid", ref.uid)
      .booleanIfTrue("controller", ref.controller)
      .booleanIfTrue("blockOwnerDeletion", ref.blockOwnerDeletion)
      .take();
}

Value encodeKeySelector(const KeySelector& selector, JsonAllocator& a) {
  return JsonObject(a)
      .stringIfSet("name", selector.name)
      .string("key", selector.key)
      .booleanIfSet("optional", selector.optional)
      .take();
}

Value encodeEnvVarSource(const EnvVarSource& source, JsonAllocator& a) {
  JsonObject out(a);
  if (const auto& f = source.fieldRef)
    out.set("fieldRef", JsonObject(a).stringIfSet("apiVersion", f->apiVersion).string("fieldPath", f->fieldPath).take());
  if (const auto& r = source.resourceFieldRef) {
    JsonObject ref(a);
    ref.stringIfSet("containerName", r->containerName).string("resource", r->resource);
    if (r->divisor) ref.string("divisor", r->divisor->toString());
    out.set("resourceFieldRef", ref.take());
  }
  if (source.configMapKeyRef) out.set("configMapKeyRef", encodeKeySelector(*source.configMapKeyRef, a));
  if (source.secretKeyRef) out.set("secretKeyRef", encodeKeySelector(*source.secretKeyRef, a));
  return out.take();
}

Value encodeEnvVar(const EnvVar& env, JsonAllocator& a) {
  JsonObject out(a);
  out.string("name", env.name).stringIfSet("value", env.value);
  if (env.valueFrom) out.set("valueFrom", encodeEnvVarSource(*env.valueFrom, a));
  return out.take();
}

Value encodePort(const ContainerPort& port, JsonAllocator& a) {
  return JsonObject(a)
      .stringIfSet("name", port.name)
      .integerIfSet("hostPort", port.hostPort)
      .integer("containerPort", port.containerPort)
      .stringIfSet("protocol", port.protocol)
      .stringIfSet("hostIP", port.hostIP)
      .take();
}

Value encodeResources(const ResourceRequirements& resources, JsonAllocator& a) {
  return JsonObject(a)
      .setIfSet("limits", jsonResources(resources.limits, a))
      .setIfSet("requests", jsonResources(resources.requests, a))
      .merge(resources.unknown)
      .take();
}

Value encodeVolumeMount(const VolumeMount& mount, JsonAllocator& a) {
  return JsonObject(a)
      .string("name", mount.name)
      .booleanIfTrue("readOnly", mount.readOnly)
      .string("mountPath", mount.mountPath)
      .stringIfSet("subPath", mount.subPath)
      .merge(mount.unknown)
      .take();
}

Value encodeContainer(const Container& c, JsonAllocator& a) {
  return JsonObject(a)
      .string("name", c.name)
      .stringIfSet("image", c.image)
      .setIfSet("command", jsonStrings(c.command, a))
      .setIfSet("args", jsonStrings(c.args, a))
      .stringIfSet("workingDir", c.workingDir)
      .setIfSet("ports", jsonArray(c.ports, a, encodePort))
      .setIfSet("env", jsonArray(c.env, a, encodeEnvVar))
      .setIfSet("resources", encodeResources(c.resources, a))
      .setIfSet("volumeMounts", jsonArray(c.volumeMounts, a, encodeVolumeMount))
      .merge(c.unknown)
      .take();
}

Value encodeKeyToPath(const KeyToPath& item, JsonAllocator& a) {
  return JsonObject(a).string("key", item.key).string("path", item.path).integerIfSet("mode", item.mode).take();
}

Value encodeVolume(const Volume& v, JsonAllocator& a) {
  JsonObject out(a);
  out.string("name", v.name);
  if (const auto& e = v.emptyDir) {
    JsonObject dir(a);
    dir.stringIfSet("medium", e->medium);
    if (e->sizeLimit) dir.string("sizeLimit", e->sizeLimit->toString());
    out.set("emptyDir", dir.take());
  }
  if (const auto& s = v.secret)
    out.set("secret", JsonObject(a)
                          .stringIfSet("secretName", s->secretName)
                          .setIfSet("items", jsonArray(s->items, a, encodeKeyToPath))
                          .integerIfSet("defaultMode", s->defaultMode)
                          .booleanIfSet("optional", s->optional)
                          .take());
  if (const auto& p = v.persistentVolumeClaim)
    out.set("persistentVolumeClaim",
            JsonObject(a).string("claimName", p->claimName).booleanIfTrue("readOnly", p->readOnly).take());
  if (const auto& c = v.configMap)
    out.set("configMap", JsonObject(a)
                             .stringIfSet("name", c->name)
                             .setIfSet("items", jsonArray(c->items, a, encodeKeyToPath))
                             .integerIfSet("defaultMode", c->defaultMode)
                             .booleanIfSet("optional", c->optional)
                             .take());
  return out.merge(v.unknown).take();
}

// `nodeName` is only set for Pods (the model keeps it in PodStatus).
Value encodePodSpec(const PodSpec& spec, std::string_view nodeName, JsonAllocator& a) {
  return JsonObject(a)
      .setIfSet("volumes", jsonArray(spec.volumes, a, encodeVolume))
      .setIfSet("initContainers", jsonArray(spec.initContainers, a, encodeContainer))
      .set("containers", jsonArray(spec.containers, a, encodeContainer))
      .stringIfSet("restartPolicy", spec.restartPolicy)
      .stringIfSet("dnsPolicy", spec.dnsPolicy)
      .stringIfSet("nodeName", nodeName)
      .booleanIfTrue("hostNetwork", spec.hostNetwork)
      .stringIfSet("hostname", spec.hostname)
      .stringIfSet("subdomain", spec.subdomain)
      .stringIfSet("schedulerName", spec.schedulerName)
      .stringIfSet("priorityClassName", spec.priorityClassName)
      .merge(spec.unknown)
      .take();
}

Value encodeTerminated(const ContainerStateTerminated& t, JsonAllocator& a) {
  return JsonObject(a)
      .integer("exitCode", t.exitCode)
      .integerIfSet("signal", t.signal)
      .stringIfSet("reason", t.reason)
      .stringIfSet("message", t.message)
      .take();
}

Value encodeContainerStatus(const ContainerStatus& s, JsonAllocator& a) {
  JsonObject state(a);
  if (s.running) state.set("running", Value(rapidjson::kObjectType));
  if (s.terminated) state.set("terminated", encodeTerminated(*s.terminated, a));
  JsonObject out(a);
  out.string("name", s.name).set("state", state.take());
  if (s.lastTerminated)
    out.set("lastState", JsonObject(a).set("terminated", encodeTerminated(*s.lastTerminated, a)).take());
  return out.boolean("ready", s.ready).integer("restartCount", s.restartCount).take();
}

Value encodePodStatus(const PodStatus& status, JsonAllocator& a) {
  return JsonObject(a)
      .string("phase", toString(status.phase))
      .stringIfSet("message", status.message)
      .stringIfSet("reason", status.reason)
      .stringIfSet("podIP", status.podIP)
      .setIfSet("initContainerStatuses", jsonArray(status.initContainerStatuses, a, encodeContainerStatus))
      .setIfSet("containerStatuses", jsonArray(status.containerStatuses, a, encodeContainerStatus))
      .take();
}

}  // namespace

Value encodeObjectMeta(const ObjectMeta& meta, JsonAllocator& a) {
  return JsonObject(a)
      .stringIfSet("name", meta.name)
      .stringIfSet("namespace", meta.namespace_)
      .stringIfSet("uid", meta.uid)
      .stringIfSet("resourceVersion", meta.resourceVersion)
      .timeIfSet("creationTimestamp", meta.creationTimestamp)
      .timeIfSet("deletionTimestamp", meta.deletionTimestamp)
      .setIfSet("labels", jsonStringMap(meta.labels, a))
      .setIfSet("annotations", jsonStringMap(meta.annotations, a))
      .setIfSet("ownerReferences", jsonArray(meta.ownerReferences, a, encodeOwnerReference))
      .merge(meta.unknown)
      .take();
}

Value encodePodTemplateSpec(const PodTemplateSpec& podTemplate, JsonAllocator& a) {
  return JsonObject(a)
      .setIfSet("metadata", encodeObjectMeta(podTemplate.metadata, a))
      .set("spec", encodePodSpec(podTemplate.spec, "", a))
      .take();
}

Value encodePod(const Pod& pod, JsonAllocator& a) {
  return JsonObject(a)
      .string("apiVersion", "v1")
      .string("kind", "Pod")
      .set("metadata", encodeObjectMeta(pod.metadata, a))
      .set("spec", encodePodSpec(pod.spec, pod.status.nodeName, a))
      .set("status", encodePodStatus(pod.status, a))
      .take();
}

}  // namespace jobhost
