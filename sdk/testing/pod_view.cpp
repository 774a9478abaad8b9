// PodView accessors: lookups by name over the pod copy; a missing container is an exception that
// names the pod and its containers, so a test failure says what exists.
#include "jobhost/testing/pod_view.h"

#include <stdexcept>

namespace jobhost::testing {
namespace {

const Container& pick(const Pod& pod, const std::vector<Container>& list, std::string_view name, const char* kind) {
  if (name.empty() && !list.empty()) return list.front();
  for (const auto& c : list)
    if (c.name == name) return c;
  std::string known;
  for (const auto& c : list) known += (known.empty() ? "" : ", ") + c.name;
  throw std::out_of_range("jobhost::testing: pod \"" + pod.metadata.name + "\" has no " + kind + " \"" +
                          std::string(name) + "\" (has: " + (known.empty() ? "none" : known) + ")");
}

template <class T>
std::optional<T> copyOf(const T* found) {
  if (found == nullptr) return std::nullopt;
  return *found;
}

std::optional<std::string> lookup(const StringMap& map, std::string_view key) {
  auto it = map.find(std::string(key));
  if (it == map.end()) return std::nullopt;
  return it->second;
}

}  // namespace

std::vector<std::string> envList(const Container& container) {
  std::vector<std::string> out;
  for (const auto& e : container.env) {
    if (!e.valueFrom) out.push_back(e.name + "=" + e.value);
    else if (e.valueFrom->configMapKeyRef)
      out.push_back(e.name + "<-configMap:" + e.valueFrom->configMapKeyRef->name + "/" + e.valueFrom->configMapKeyRef->key);
    else if (e.valueFrom->secretKeyRef)
      out.push_back(e.name + "<-secret:" + e.valueFrom->secretKeyRef->name + "/" + e.valueFrom->secretKeyRef->key);
    else if (e.valueFrom->fieldRef)
      out.push_back(e.name + "<-field:" + e.valueFrom->fieldRef->fieldPath);
    else
      out.push_back(e.name + "<-resource:" + (e.valueFrom->resourceFieldRef ? e.valueFrom->resourceFieldRef->resource : ""));
  }
  return out;
}

const Container& PodView::container(std::string_view name) const& {
  return pick(pod_, pod_.spec.containers, name, "container");
}

Container PodView::container(std::string_view name) && { return container(name); }

const Container& PodView::initContainer(std::string_view name) const& {
  return pick(pod_, pod_.spec.initContainers, name, "init container");
}

Container PodView::initContainer(std::string_view name) && { return initContainer(name); }

std::optional<std::string> PodView::env(std::string_view var, std::string_view c) const {
  for (const auto& e : container(c).env)
    if (e.name == var) return e.value;
  return std::nullopt;
}

std::vector<std::string> PodView::envList(std::string_view c) const { return testing::envList(container(c)); }

const Volume* PodView::volume(std::string_view name) const& {
  for (const auto& v : pod_.spec.volumes)
    if (v.name == name) return &v;
  return nullptr;
}

std::optional<Volume> PodView::volume(std::string_view name) && { return copyOf(volume(name)); }

const VolumeMount* PodView::mount(std::string_view mountPath, std::string_view c) const& {
  for (const auto& m : container(c).volumeMounts)
    if (m.mountPath == mountPath) return &m;
  return nullptr;
}

std::optional<VolumeMount> PodView::mount(std::string_view mountPath, std::string_view c) && {
  return copyOf(mount(mountPath, c));
}

const ContainerPort* PodView::port(std::string_view portName, std::string_view c) const& {
  for (const auto& p : container(c).ports)
    if (p.name == portName) return &p;
  return nullptr;
}

std::optional<ContainerPort> PodView::port(std::string_view portName, std::string_view c) && {
  return copyOf(port(portName, c));
}

const std::vector<ContainerPort>& PodView::ports(std::string_view c) const& { return container(c).ports; }

std::vector<ContainerPort> PodView::ports(std::string_view c) && { return ports(c); }

std::optional<std::string> PodView::label(std::string_view key) const { return lookup(pod_.metadata.labels, key); }

std::optional<std::string> PodView::annotation(std::string_view key) const {
  return lookup(pod_.metadata.annotations, key);
}

}  // namespace jobhost::testing
