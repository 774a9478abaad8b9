// The sim scheduler's node index: the node it picks is the one a scan of every node picks (most
// free CPU, then fewer pods, then lower index; never lost, never short of a resource), through takes and gives.
#include <gtest/gtest.h>

#include <random>

#include "host/cluster/sim/node_index.h"

namespace jobhost {
namespace {

/// The rule, node by node: what the index must agree with.
int scanForNode(const std::vector<NodeIndex::Node>& nodes, const SimResources& request) {
  int best = -1;
  for (size_t i = 0; i < nodes.size(); ++i) {
    const NodeIndex::Node& n = nodes[i];
    if (n.lost || !request.fitsIn(n.free)) continue;
    if (best < 0) {
      best = static_cast<int>(i);
      continue;
    }
    const NodeIndex::Node& b = nodes[static_cast<size_t>(best)];
    if (n.free.cpuMilli > b.free.cpuMilli || (n.free.cpuMilli == b.free.cpuMilli && n.pods < b.pods))
      best = static_cast<int>(i);
  }
  return best;
}

NodeIndex::Node node(int64_t cpu, int64_t memory, int64_t gpu, int pods = 0, bool lost = false) {
  return {{cpu, memory, gpu}, pods, lost};
}

TEST(NodeIndex, PicksMostFreeCpuThenFewerPodsThenLowerIndexAndSkipsLostOrShortNodes) {
  NodeIndex index;
  index.reset({node(4000, 8000, 0, 2), node(6000, 1000, 0), node(6000, 8000, 1, 3), node(6000, 8000, 0, 1),
               node(8000, 8000, 4, 0, true), node(6000, 8000, 0, 1)});
  EXPECT_EQ(index.pick({1000, 2000, 0}), 3);  // 1 is short of memory, 4 is lost; 3 and 5 tie: lower index
  EXPECT_EQ(index.pick({1000, 500, 0}), 1);   // 1 fits now and has fewer pods than 2, 3 and 5
  EXPECT_EQ(index.pick({1000, 500, 1}), 2);   // only 2 has a GPU that is not lost
  EXPECT_EQ(index.pick({7000, 0, 0}), -1);    // only the lost node has 8 CPUs free
  index.take(3, {3000, 0, 0});
  EXPECT_EQ(index.pick({1000, 2000, 0}), 5);
  index.give(3, {3000, 0, 0});
  EXPECT_EQ(index.pick({1000, 2000, 0}), 3);
}

TEST(NodeIndex, HasNoNodeToPickOnAnEmptyCluster) {
  NodeIndex index;
  index.reset({});
  EXPECT_EQ(index.pick({}), -1);
}

TEST(NodeIndex, AgreesWithAScanOfEveryNodeThroughRandomTakesAndGives) {
  std::mt19937 rng(7);
  auto upTo = [&](int64_t n) { return std::uniform_int_distribution<int64_t>(0, n)(rng); };
  for (int cluster = 0; cluster < 200; ++cluster) {
    std::vector<NodeIndex::Node> nodes(static_cast<size_t>(1 + upTo(40)));
    for (auto& n : nodes)  // few distinct values, so ties on CPU and on pods are common
      n = node(1000 * upTo(4), 1000 * upTo(3), upTo(2), static_cast<int>(upTo(3)), upTo(5) == 0);
    NodeIndex index;
    index.reset(nodes);
    std::vector<std::pair<int, SimResources>> taken;
    for (int step = 0; step < 100; ++step) {
      const SimResources request{500 * upTo(4), 500 * upTo(3), upTo(4) == 0 ? 1 : 0};
      const int expected = scanForNode(nodes, request);
      ASSERT_EQ(index.pick(request), expected) << "cluster " << cluster << ", step " << step;
      if (expected >= 0 && upTo(3) > 0) {
        index.take(expected, request);
        nodes[static_cast<size_t>(expected)].free -= request;
        ++nodes[static_cast<size_t>(expected)].pods;
        taken.emplace_back(expected, request);
      } else if (!taken.empty()) {  // a gang that did not fit gives its nodes back
        auto [n, r] = taken.back();
        taken.pop_back();
        index.give(n, r);
        nodes[static_cast<size_t>(n)].free += r;
        --nodes[static_cast<size_t>(n)].pods;
      }
    }
  }
}

}  // namespace
}  // namespace jobhost
