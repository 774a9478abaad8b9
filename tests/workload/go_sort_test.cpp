// goSort against orders produced by Go's sort.Sort (Go 1.24+ xorshift constants) for descending
// priorities: insertion sort up to 12, partitions, pattern breaking, the ninther and heapsort.
#include "host/workload/go_sort.h"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

namespace jobhost {
namespace {

/// The original indexes of `priorities` in the order goSort leaves them, highest priority first.
std::vector<int> sortedIndexes(const std::vector<int>& priorities) {
  std::vector<std::pair<int, int>> v;
  for (int i = 0; i < static_cast<int>(priorities.size()); ++i) v.emplace_back(priorities[i], i);
  goSort(static_cast<int>(v.size()), [&](int i, int j) { return v[i].first > v[j].first; },
         [&](int i, int j) { std::swap(v[i], v[j]); });
  std::vector<int> order;
  for (const auto& [priority, index] : v) order.push_back(index);
  return order;
}

TEST(GoSort, EmptyAndSingleElementAreUntouched) {
  EXPECT_EQ(sortedIndexes({}), std::vector<int>{});
  EXPECT_EQ(sortedIndexes({7}), std::vector<int>{0});
}

TEST(GoSort, UpToTwelveElementsIsAnInsertionSortSoTiesKeepTheirOrder) {
  EXPECT_EQ(sortedIndexes({1, 3, 1, 3, 2, 1, 3, 2, 1, 1, 3, 2}),
            (std::vector<int>{1, 3, 6, 10, 4, 7, 11, 0, 2, 5, 8, 9}));
}

TEST(GoSort, ThirteenElementsPartitionAndReorderTies) {
  // t8 ends before t7 (both 3); a stable sort would keep t7 first.
  EXPECT_EQ(sortedIndexes({-3, 4, 4, 2, 5, 0, -3, 3, 3, -3, -5, -5, 5}),
            (std::vector<int>{4, 12, 1, 2, 8, 7, 3, 5, 6, 9, 0, 10, 11}));
}

TEST(GoSort, AnUnbalancedPartitionBreaksPatternsWithGosXorshift) {
  // Go before 1.24 (xorshift 13/17/5) gives 15 13 10 12 11 20 19 18 17 16 14 6 3 4 2 0 9 8 7 1 5.
  EXPECT_EQ(sortedIndexes({0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1}),
            (std::vector<int>{15, 16, 20, 19, 18, 17, 12, 14, 13, 10, 11, 1, 9, 8, 7, 0, 6, 5, 4, 3, 2}));
}

TEST(GoSort, FiftyElementsChooseThePivotByNinther) {
  std::vector<int> priorities(50, 0);
  for (int i = 25; i < 50; ++i) priorities[i] = 1;
  EXPECT_EQ(sortedIndexes(priorities),
            (std::vector<int>{38, 29, 48, 47, 46, 45, 44, 43, 42, 41, 40, 39, 49, 36, 25, 35, 34,
                              33, 32, 31, 30, 37, 28, 27, 26, 12, 24, 23, 22, 21, 20, 19, 18, 17,
                              16, 15, 14, 13, 0, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1}));
}

TEST(GoSort, TheHeapSortFallbackMatchesGos) {
  // pdqsort falls back to it after bit_width(n) bad pivots; called directly here.
  std::vector<std::pair<int, int>> v;
  for (int p : {-3, 4, 4, 2, 5, 0, -3, 3, 3, -3, -5, -5, 5}) v.emplace_back(p, static_cast<int>(v.size()));
  auto less = [&](int i, int j) { return v[i].first > v[j].first; };
  auto swap = [&](int i, int j) { std::swap(v[i], v[j]); };
  go_sort_detail::Sorter<decltype(less), decltype(swap)>{less, swap}.heapSort(0, static_cast<int>(v.size()));
  std::vector<int> order;
  for (const auto& [priority, index] : v) order.push_back(index);
  EXPECT_EQ(order, (std::vector<int>{12, 4, 1, 2, 8, 7, 3, 5, 6, 9, 0, 11, 10}));
}

TEST(GoSort, SortedAndEqualInputsAreLeftAsTheyAre) {
  std::vector<int> equal(40, 2), descending(60);
  for (int i = 0; i < 60; ++i) descending[i] = 60 - i;
  std::vector<int> identity40(40), identity60(60);
  for (int i = 0; i < 60; ++i) (i < 40 ? identity40[i] = i : 0), identity60[i] = i;
  EXPECT_EQ(sortedIndexes(equal), identity40);
  EXPECT_EQ(sortedIndexes(descending), identity60);
}

}  // namespace
}  // namespace jobhost
