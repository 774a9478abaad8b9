// goSort: Go's sort.Sort (pattern-defeating quicksort, Go 1.24+ constants) over index callbacks, so
// an unstable sort that Volcano relies on leaves equal elements in the order Go leaves them.
#pragma once

#include <bit>
#include <cstdint>

namespace jobhost {
namespace go_sort_detail {

enum class Hint { Unknown, Increasing, Decreasing };

template <class Less, class Swap>
struct Sorter {
  Less less;
  Swap swap;

  void insertionSort(int a, int b) {
    for (int i = a + 1; i < b; ++i)
      for (int j = i; j > a && less(j, j - 1); --j) swap(j, j - 1);
  }

  void siftDown(int lo, int hi, int first) {
    int root = lo;
    for (;;) {
      int child = 2 * root + 1;
      if (child >= hi) return;
      if (child + 1 < hi && less(first + child, first + child + 1)) ++child;
      if (!less(first + root, first + child)) return;
      swap(first + root, first + child);
      root = child;
    }
  }

  void heapSort(int a, int b) {
    const int hi = b - a;
    for (int i = (hi - 1) / 2; i >= 0; --i) siftDown(i, hi, a);
    for (int i = hi - 1; i >= 0; --i) {
      swap(a, a + i);
      siftDown(0, i, a);
    }
  }

  /// Orders the indexes x, y so that data[x] <= data[y], counting a reorder as a swap.
  void order2(int& x, int& y, int& swaps) {
    if (less(y, x)) {
      ++swaps;
      const int t = x;
      x = y;
      y = t;
    }
  }

  int median(int a, int b, int c, int& swaps) {
    order2(a, b, swaps);
    order2(b, c, swaps);
    order2(a, b, swaps);
    return b;
  }

  /// The pivot index and whether data[a:b] looked increasing or decreasing around it.
  int choosePivot(int a, int b, Hint& hint) {
    const int l = b - a;
    int swaps = 0;
    int i = a + l / 4 * 1, j = a + l / 4 * 2, k = a + l / 4 * 3;
    if (l >= 8) {
      if (l >= 50) {  // Tukey's ninther
        i = median(i - 1, i, i + 1, swaps);
        j = median(j - 1, j, j + 1, swaps);
        k = median(k - 1, k, k + 1, swaps);
      }
      j = median(i, j, k, swaps);
    }
    hint = swaps == 0 ? Hint::Increasing : swaps == 12 ? Hint::Decreasing : Hint::Unknown;
    return j;
  }

  void reverseRange(int a, int b) {
    for (int i = a, j = b - 1; i < j; ++i, --j) swap(i, j);
  }

  /// Shifts at most five out-of-order neighbours into place; true when data[a:b] ends sorted.
  bool partialInsertionSort(int a, int b) {
    int i = a + 1;
    for (int step = 0; step < 5; ++step) {
      while (i < b && !less(i, i - 1)) ++i;
      if (i == b) return true;
      if (b - a < 50) return false;
      swap(i, i - 1);
      if (i - a >= 2)  // Go's loop runs down to index 1, not to a
        for (int j = i - 1; j >= 1 && less(j, j - 1); --j) swap(j, j - 1);
      if (b - i >= 2)
        for (int j = i + 1; j < b && less(j, j - 1); ++j) swap(j, j - 1);
    }
    return false;
  }

  /// Scatters three elements in the middle with Go's xorshift seeded by the length.
  void breakPatterns(int a, int b) {
    const int length = b - a;
    if (length < 8) return;
    uint64_t random = static_cast<uint64_t>(length);
    const uint64_t modulus = uint64_t{1} << std::bit_width(static_cast<uint64_t>(length));
    for (int idx = a + (length / 4) * 2 - 1; idx <= a + (length / 4) * 2 + 1; ++idx) {
      random ^= random << 13;
      random ^= random >> 7;
      random ^= random << 17;
      int other = static_cast<int>(random & (modulus - 1));
      if (other >= length) other -= length;
      swap(idx, a + other);
    }
  }

  /// Elements equal to data[pivot] first, then greater ones; returns where the greater ones start.
  int partitionEqual(int a, int b, int pivot) {
    swap(a, pivot);
    int i = a + 1, j = b - 1;
    for (;;) {
      while (i <= j && !less(a, i)) ++i;
      while (i <= j && less(a, j)) --j;
      if (i > j) return i;
      swap(i, j);
      ++i;
      --j;
    }
  }

  /// One quicksort partition around data[pivot]; returns its new index and whether nothing moved.
  int partition(int a, int b, int pivot, bool& alreadyPartitioned) {
    swap(a, pivot);
    int i = a + 1, j = b - 1;
    alreadyPartitioned = false;
    bool first = true;
    for (;;) {
      while (i <= j && less(i, a)) ++i;
      while (i <= j && !less(j, a)) --j;
      if (i > j) {
        alreadyPartitioned = first;
        break;
      }
      first = false;
      swap(i, j);
      ++i;
      --j;
    }
    swap(j, a);
    return j;
  }

  void pdqsort(int a, int b, int limit) {
    bool wasBalanced = true, wasPartitioned = true;
    for (;;) {
      const int length = b - a;
      if (length <= 12) return insertionSort(a, b);
      if (limit == 0) return heapSort(a, b);
      if (!wasBalanced) {
        breakPatterns(a, b);
        --limit;
      }
      Hint hint;
      int pivot = choosePivot(a, b, hint);
      if (hint == Hint::Decreasing) {
        reverseRange(a, b);
        pivot = (b - 1) - (pivot - a);
        hint = Hint::Increasing;
      }
      if (wasBalanced && wasPartitioned && hint == Hint::Increasing && partialInsertionSort(a, b)) return;
      if (a > 0 && !less(a - 1, pivot)) {
        a = partitionEqual(a, b, pivot);
        continue;
      }
      const int mid = partition(a, b, pivot, wasPartitioned);
      const int leftLen = mid - a, rightLen = b - mid, balanceThreshold = length / 8;
      if (leftLen < rightLen) {
        wasBalanced = leftLen >= balanceThreshold;
        pdqsort(a, mid, limit);
        a = mid + 1;
      } else {
        wasBalanced = rightLen >= balanceThreshold;
        pdqsort(mid + 1, b, limit);
        b = mid;
      }
    }
  }
};

}  // namespace go_sort_detail

/// Sorts n elements as Go's sort.Sort does: less(i, j) and swap(i, j) take element indexes.
template <class Less, class Swap>
void goSort(int n, Less less, Swap swap) {
  if (n <= 1) return;
  go_sort_detail::Sorter<Less, Swap> sorter{less, swap};
  sorter.pdqsort(0, n, std::bit_width(static_cast<unsigned>(n)));
}

}  // namespace jobhost
