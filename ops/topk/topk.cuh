// TopK along one axis: the k largest (or smallest) elements of each row with their
// int64 indices, always sorted (the spec leaves order free when sorted = 0). Order
// is total: equal values go lower index first, and NaN ranks above every number.
// On CUDA one thread keeps each row's best k sorted in the outputs by insertion;
// the CPU twin partial-sorts the row (same order, so the same result).
#include "backends/kernel_prelude.cuh"
#include "ops/common/rows.cuh"
#ifndef __CUDACC_RTC__
#include <algorithm>
#include <vector>
#endif

// Does (a, ia) come before (b, ib)?
template <typename A>
static GK_FN bool gk_topk_before(A a, int64_t ia, A b, int64_t ib, int32_t largest) {
  const bool an = a != a, bn = b != b;
  if (an || bn) return an && bn ? ia < ib : (largest ? an : bn);
  if (a == b) return ia < ib;
  return largest ? a > b : a < b;
}

// `g` describes the input rows ([outer, len, inner]); output rows have k elements
// at the same inner stride.
template <typename T>
GK_KERNEL void gk_topk(const T* GK_RESTRICT x, T* GK_RESTRICT values, int64_t* GK_RESTRICT indices, gk_rows g,
                       int64_t k, int32_t largest) {
  typedef typename gk_acc<T>::type A;
  const int64_t inner = g.inner, len = g.len;
#ifdef __CUDACC_RTC__
  GK_KERNEL_LOOP(row, g.rows) {
    const int64_t o = row / inner, j = row - o * inner;
    const T* p = x + o * len * inner + j;
    T* v = values + o * k * inner + j;
    int64_t* ix = indices + o * k * inner + j;
    int64_t filled = 0;
    for (int64_t r = 0; r < len; ++r) {
      const A a = (A)p[r * inner];
      if (filled == k && !gk_topk_before<A>(a, r, (A)v[(k - 1) * inner], ix[(k - 1) * inner], largest)) continue;
      int64_t pos = filled < k ? filled++ : k - 1;
      while (pos > 0 && gk_topk_before<A>(a, r, (A)v[(pos - 1) * inner], ix[(pos - 1) * inner], largest)) {
        v[pos * inner] = v[(pos - 1) * inner];
        ix[pos * inner] = ix[(pos - 1) * inner];
        --pos;
      }
      v[pos * inner] = (T)a;
      ix[pos * inner] = r;
    }
  }
#else
  thread_local std::vector<int64_t> order;
  order.resize(static_cast<size_t>(len));
  GK_KERNEL_LOOP(row, g.rows) {
    const int64_t o = row / inner, j = row - o * inner;
    const T* p = x + o * len * inner + j;
    for (int64_t r = 0; r < len; ++r) order[r] = r;
    std::partial_sort(order.begin(), order.begin() + k, order.end(), [&](int64_t a, int64_t b) {
      return gk_topk_before<A>((A)p[a * inner], a, (A)p[b * inner], b, largest);
    });
    T* v = values + o * k * inner + j;
    int64_t* ix = indices + o * k * inner + j;
    for (int64_t r = 0; r < k; ++r) {
      v[r * inner] = p[order[r] * inner];
      ix[r * inner] = order[r];
    }
  }
#endif
}
