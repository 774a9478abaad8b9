// PodView: convenient read access to one pod for assertions — env by name, volumes, mounts,
// ports, labels, annotations — over a copy of the pod as the host created it.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "jobhost/testing/export.h"
#include "jobhost/pod.h"

namespace jobhost::testing {

/// A value: holds its own copy of the pod. Container accessors take a container name; empty
/// means the first container. A missing container throws std::out_of_range naming the pod.
/// Called on a temporary (`h.pod("x").container()`), pod(), container(), initContainer() and
/// ports() return copies, so `const auto& c = h.pod("x").container();` never dangles; volume(),
/// mount() and port() return a std::optional copy instead of a pointer into the dying view.
class JOBHOST_TESTING_API PodView {
 public:
  explicit PodView(Pod pod) : pod_(std::move(pod)) {}

  const Pod& pod() const& { return pod_; }
  Pod pod() && { return std::move(pod_); }
  const std::string& name() const { return pod_.metadata.name; }
  PodPhase phase() const { return pod_.status.phase; }

  const Container& container(std::string_view name = {}) const&;
  Container container(std::string_view name = {}) &&;
  const Container& initContainer(std::string_view name) const&;
  Container initContainer(std::string_view name) &&;
  /// The literal value of env var `var`, or nullopt when the container has no such variable.
  std::optional<std::string> env(std::string_view var, std::string_view container = {}) const;
  /// "NAME=value" (or "NAME<-configMap:<cm>/<key>", "NAME<-secret:<s>/<key>",
  /// "NAME<-field:<path>", "NAME<-resource:<resource>") for every env var of the container, in order.
  std::vector<std::string> envList(std::string_view container = {}) const;
  const Volume* volume(std::string_view name) const&;  // nullptr when absent
  std::optional<Volume> volume(std::string_view name) &&;  // nullopt when absent
  const VolumeMount* mount(std::string_view mountPath, std::string_view container = {}) const&;
  std::optional<VolumeMount> mount(std::string_view mountPath, std::string_view container = {}) &&;
  const ContainerPort* port(std::string_view portName, std::string_view container = {}) const&;
  std::optional<ContainerPort> port(std::string_view portName, std::string_view container = {}) &&;
  const std::vector<ContainerPort>& ports(std::string_view container = {}) const&;
  std::vector<ContainerPort> ports(std::string_view container = {}) &&;
  std::optional<std::string> label(std::string_view key) const;
  std::optional<std::string> annotation(std::string_view key) const;

 private:
  Pod pod_;
};

/// envList() of any container (shared with tests that build pods themselves).
JOBHOST_TESTING_API std::vector<std::string> envList(const Container& container);

}  // namespace jobhost::testing
