// NodeIndex: the sim scheduler's nodes by free capacity, so a pod's node is found in about
// log(nodes) steps instead of a scan of every node; take/give to try a gang and roll it back.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "host/cluster/sim/sim_resources.h"

namespace jobhost {

class NodeIndex {
 public:
  /// A node as the scheduler sees it during a pass.
  struct Node {
    SimResources free;
    int pods = 0;
    bool lost = false;
  };

  /// Indexes `nodes` (index i is node i). O(nodes).
  void reset(std::vector<Node> nodes);
  /// The least-allocated node `request` fits in: most free CPU, then fewer pods, then the lower
  /// index; never a lost node. -1 when none fits.
  int pick(const SimResources& request) const;
  /// Places `request` on `node` (free capacity down, one more pod).
  void take(int node, const SimResources& request);
  /// Undoes take(node, request).
  void give(int node, const SimResources& request);

 private:
  /// The most free of each resource and the fewest pods among a subtree's usable nodes.
  struct Summary {
    int64_t cpu, memory, gpu;
    int pods;
  };
  struct Best;
  Summary leafOf(size_t node) const;  // a lost node (or padding) fits nothing
  void pull(size_t t);                // tree_[t] from its two children
  void update(size_t node);
  void search(size_t t, size_t lo, size_t hi, const SimResources& request, Best& best) const;
  bool better(size_t i, const Best& best) const;

  std::vector<Node> nodes_;
  std::vector<Summary> tree_;  // tree_[1] is the root; leaf i is tree_[width_ + i]
  size_t width_ = 1;           // leaves: a power of two >= nodes
};

}  // namespace jobhost
