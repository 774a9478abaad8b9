// NodeIndex: a segment tree over the nodes holding each subtree's most free CPU, memory and GPU and
// fewest pods; pick() searches it depth-first, skipping subtrees that cannot fit or cannot win.
#include "host/cluster/sim/node_index.h"

#include <algorithm>
#include <cstdint>
#include <limits>

namespace jobhost {
namespace {

constexpr int64_t kNone = std::numeric_limits<int64_t>::min();  // fits no request: lost or no node
constexpr int kNoPods = std::numeric_limits<int>::max();

}  // namespace

struct NodeIndex::Best {
  size_t node = SIZE_MAX;  // SIZE_MAX: none yet
  int64_t cpu = kNone;
  int pods = kNoPods;
};

void NodeIndex::reset(std::vector<Node> nodes) {
  nodes_ = std::move(nodes);
  width_ = 1;
  while (width_ < nodes_.size()) width_ *= 2;
  tree_.resize(2 * width_);
  for (size_t i = 0; i < width_; ++i) tree_[width_ + i] = leafOf(i);
  for (size_t t = width_ - 1; t >= 1; --t) pull(t);
}

NodeIndex::Summary NodeIndex::leafOf(size_t i) const {
  if (i >= nodes_.size() || nodes_[i].lost) return {kNone, kNone, kNone, kNoPods};
  const Node& n = nodes_[i];
  return {n.free.cpuMilli, n.free.memoryMilli, n.free.gpu, n.pods};
}

void NodeIndex::pull(size_t t) {
  const Summary& l = tree_[2 * t];
  const Summary& r = tree_[2 * t + 1];
  tree_[t] = {std::max(l.cpu, r.cpu), std::max(l.memory, r.memory), std::max(l.gpu, r.gpu), std::min(l.pods, r.pods)};
}

void NodeIndex::update(size_t node) {
  tree_[width_ + node] = leafOf(node);
  for (size_t t = (width_ + node) / 2; t >= 1; t /= 2) pull(t);
}

void NodeIndex::take(int node, const SimResources& request) {
  Node& n = nodes_[static_cast<size_t>(node)];
  n.free -= request;
  ++n.pods;
  update(static_cast<size_t>(node));
}

void NodeIndex::give(int node, const SimResources& request) {
  Node& n = nodes_[static_cast<size_t>(node)];
  n.free += request;
  --n.pods;
  update(static_cast<size_t>(node));
}

bool NodeIndex::better(size_t i, const Best& best) const {
  const Node& n = nodes_[i];
  if (best.node == SIZE_MAX || n.free.cpuMilli != best.cpu) return n.free.cpuMilli > best.cpu;
  return n.pods != best.pods ? n.pods < best.pods : i < best.node;
}

int NodeIndex::pick(const SimResources& request) const {
  Best best;
  if (!nodes_.empty()) search(1, 0, width_, request, best);
  return best.node == SIZE_MAX ? -1 : static_cast<int>(best.node);
}

/// Subtree `t` covers nodes [lo, hi). It is skipped when no node in it can fit `request` (one of
/// its maxima is short) or none can beat `best` (less CPU; or as much CPU but more pods; or both
/// equal and every index in it higher). The child with more free CPU is searched first.
void NodeIndex::search(size_t t, size_t lo, size_t hi, const SimResources& request, Best& best) const {
  const Summary& s = tree_[t];
  if (s.cpu < request.cpuMilli || s.memory < request.memoryMilli || s.gpu < request.gpu) return;
  if (best.node != SIZE_MAX &&
      (s.cpu < best.cpu || (s.cpu == best.cpu && (s.pods > best.pods || (s.pods == best.pods && lo > best.node)))))
    return;
  if (hi - lo == 1) {
    if (better(lo, best)) best = {lo, nodes_[lo].free.cpuMilli, nodes_[lo].pods};  // it fits: its summary is its free
    return;
  }
  const size_t mid = lo + (hi - lo) / 2;
  if (tree_[2 * t + 1].cpu > tree_[2 * t].cpu) {
    search(2 * t + 1, mid, hi, request, best);
    search(2 * t, lo, mid, request, best);
  } else {
    search(2 * t, lo, mid, request, best);
    search(2 * t + 1, mid, hi, request, best);
  }
}

}  // namespace jobhost
