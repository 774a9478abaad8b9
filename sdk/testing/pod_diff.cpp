// Pod differences as the lists a plugin edits: each container's (and init container's) env in
// PodView::envList form, mounts and ports, then the pod's volumes, labels and annotations.
#include "pod_diff.h"

#include <vector>

#include "jobhost/testing/pod_view.h"

namespace jobhost::testing {
namespace {

using Strings = std::vector<std::string>;

std::string bracketed(const Strings& items) {
  std::string out;
  for (const auto& i : items) out += (out.empty() ? "" : ", ") + i;
  return "[" + out + "]";
}

class PodChanges {
 public:
  void compare(const std::string& list, const Strings& before, const Strings& after) {
    if (before == after) return;
    text_ += (text_.empty() ? "" : "; ") + list + ": " + bracketed(before) + " -> " + bracketed(after);
  }
  std::string text() const { return text_; }

 private:
  std::string text_;
};

Strings names(const std::vector<Container>& containers) {
  Strings out;
  for (const auto& c : containers) out.push_back(c.name);
  return out;
}

Strings mounts(const Container& c) {
  Strings out;
  for (const auto& m : c.volumeMounts) out.push_back(m.name + ":" + m.mountPath);
  return out;
}

Strings ports(const Container& c) {
  Strings out;
  for (const auto& p : c.ports) out.push_back(p.name + ":" + std::to_string(p.containerPort));
  return out;
}

Strings entries(const StringMap& map) {
  Strings out;
  for (const auto& [k, v] : map) out.push_back(k + "=" + v);
  return out;
}

void compareContainers(PodChanges& changes, const std::string& kind, const std::vector<Container>& before,
                       const std::vector<Container>& after) {
  changes.compare(kind + "s", names(before), names(after));
  for (size_t i = 0; i < before.size() && i < after.size(); ++i) {
    const std::string prefix = kind + " " + before[i].name + " ";
    changes.compare(prefix + "env", envList(before[i]), envList(after[i]));
    changes.compare(prefix + "mounts", mounts(before[i]), mounts(after[i]));
    changes.compare(prefix + "ports", ports(before[i]), ports(after[i]));
  }
}

}  // namespace

std::string describePodChange(const Pod& before, const Pod& after) {
  PodChanges changes;
  compareContainers(changes, "container", before.spec.containers, after.spec.containers);
  compareContainers(changes, "init container", before.spec.initContainers, after.spec.initContainers);
  Strings volumesBefore, volumesAfter;
  for (const auto& v : before.spec.volumes) volumesBefore.push_back(v.name);
  for (const auto& v : after.spec.volumes) volumesAfter.push_back(v.name);
  changes.compare("volumes", volumesBefore, volumesAfter);
  changes.compare("labels", entries(before.metadata.labels), entries(after.metadata.labels));
  changes.compare("annotations", entries(before.metadata.annotations), entries(after.metadata.annotations));
  const std::string text = changes.text();
  return text.empty() ? "a field outside env, mounts, ports, volumes, labels and annotations changed" : text;
}

}  // namespace jobhost::testing
