// Softmax, LogSoftmax and Hardmax over rows (ops/common/rows.cuh).
// LogSoftmax is x - max - log(sum(exp(x - max))), never the log of a softmax, so it
// stays finite where the softmax underflows. Hardmax puts 1 at the first maximum.
// f16/bf16 compute in f32. The sum of exponentials is blocked and pairwise
// (ops/common/blocked_sum.cuh), the same tree in gk_softmax_thread,
// gk_softmax_block and the CPU twin, so both backends agree bit for bit (the max is
// exact in any order).
#include "backends/kernel_prelude.cuh"
#include "ops/common/blocked_sum.cuh"
#include "ops/common/math.cuh"
#include "ops/common/rows.cuh"

#define GK_SOFTMAX 0
#define GK_LOGSOFTMAX 1
#define GK_HARDMAX 2

template <typename T>
struct gk_sm_row {
  const T* p;
  T* q;
  const gk_rows* g;
  GK_FN int64_t at(int64_t r) const { return g->general ? gk_offset(g->elem_map, r) : r * g->inner; }
};

template <typename T, int MODE>
static GK_FN void gk_softmax_seq(const gk_sm_row<T>& row, int64_t n) {
  typedef typename gk_acc<T>::type A;
  A m = gk_limits<A>::lowest();
  int64_t arg = 0;
  for (int64_t r = 0; r < n; ++r) {
    A v = (A)row.p[row.at(r)];
    if (v > m || (v != v && m == m)) m = v, arg = r;
  }
  if constexpr (MODE == GK_HARDMAX) {
    for (int64_t r = 0; r < n; ++r) row.q[row.at(r)] = (T)(A)(r == arg ? 1 : 0);
  } else {
    const A s = gk_bsum_row<A>(n, [&](A acc, int64_t r) { return (A)(acc + gk_exp((A)row.p[row.at(r)] - m)); });
    if constexpr (MODE == GK_LOGSOFTMAX) {
      const A ls = gk_log(s);
      for (int64_t r = 0; r < n; ++r) row.q[row.at(r)] = (T)((A)row.p[row.at(r)] - m - ls);
    } else {
      for (int64_t r = 0; r < n; ++r) row.q[row.at(r)] = (T)(gk_exp((A)row.p[row.at(r)] - m) / s);
    }
  }
}

#ifndef __CUDACC_RTC__
#include <algorithm>

// CPU twin of both kernels: this worker's share of the rows, each in order.
// A contiguous row (the attention softmax over the last axis): plain pointer loops,
// and for softmax each exp is computed once and kept in y (exact when T is the
// accumulation type) instead of twice, the same values as gk_softmax_seq.
template <typename T, int MODE>
static void gk_softmax_contig(const T* __restrict x, T* __restrict y, int64_t n) {
  typedef typename gk_acc<T>::type A;
  A m = gk_limits<A>::lowest();
  bool nan = false;
  for (int64_t r = 0; r < n; ++r) {
    const A v = (A)x[r];
    nan |= v != v;
    m = v > m ? v : m;
  }
  for (int64_t r = 0; nan && r < n; ++r)  // gk_softmax_seq's m: the first NaN
    if ((A)x[r] != (A)x[r]) m = (A)x[r], nan = false;
  if constexpr (MODE == GK_SOFTMAX && std::is_same_v<A, T>) {
    for (int64_t r = 0; r < n; ++r) y[r] = gk_exp(x[r] - m);
    const A s = gk_bsum_row<A>(n, [&](A acc, int64_t r) { return (A)(acc + y[r]); });
    for (int64_t r = 0; r < n; ++r) y[r] = y[r] / s;
  } else {
    const A s = gk_bsum_row<A>(n, [&](A acc, int64_t r) { return (A)(acc + gk_exp((A)x[r] - m)); });
    if constexpr (MODE == GK_LOGSOFTMAX) {
      const A ls = gk_log(s);
      for (int64_t r = 0; r < n; ++r) y[r] = (T)((A)x[r] - m - ls);
    } else {
      for (int64_t r = 0; r < n; ++r) y[r] = (T)(gk_exp((A)x[r] - m) / s);
    }
  }
}

// Up to 16 neighbouring columns of [outer, len, inner] (softmax over a middle axis:
// YOLOv8's DFL over 16 bins, 4 x 8400 columns) at once, each column exactly as
// gk_softmax_seq folds it (the same first-NaN max, the same gk_bsum_row tree per
// lane), but with the columns in the inner loop, where the exps vectorise; the
// strided row at a time took 7 ms for YOLOv8's [1, 4, 16, 8400].
template <typename T, int MODE>
static void gk_softmax_columns(const T* __restrict x, T* __restrict y, int64_t len, int64_t inner, int nc) {
  typedef typename gk_acc<T>::type A;
  constexpr int L = 16;
  A m[L], blk[L], tail[L];
  for (int j = 0; j < L; ++j) m[j] = gk_limits<A>::lowest();
  for (int64_t r = 0; r < len; ++r)
    for (int j = 0; j < nc; ++j) {
      const A v = (A)x[r * inner + j];
      m[j] = (v > m[j] || (v != v && m[j] == m[j])) ? v : m[j];
    }
  // gk_bsum_row's tree, one carry stack per lane; the pushes depend only on len.
  A stack[GK_SUM_LEVELS][L];
  int32_t sp = 0;
  uint64_t count = 0;
  auto term = [&](int64_t r, int j) { return gk_exp((A)x[r * inner + j] - m[j]); };
  int64_t r = 0;
  for (; r + GK_SUM_BLOCK <= len; r += GK_SUM_BLOCK) {
    for (int j = 0; j < L; ++j) blk[j] = (A)0;
    for (int k = 0; k < GK_SUM_BLOCK; ++k)
      for (int j = 0; j < nc; ++j) blk[j] = (A)(blk[j] + term(r + k, j));
    for (uint64_t c = count; c & 1; c >>= 1) {
      --sp;
      for (int j = 0; j < L; ++j) blk[j] = (A)(stack[sp][j] + blk[j]);
    }
    for (int j = 0; j < L; ++j) stack[sp][j] = blk[j];
    ++sp;
    ++count;
  }
  for (int j = 0; j < L; ++j) tail[j] = (A)0;
  for (; r < len; ++r)
    for (int j = 0; j < nc; ++j) tail[j] = (A)(tail[j] + term(r, j));
  A sum[L];
  int32_t i = sp;
  const bool has_tail = len % GK_SUM_BLOCK != 0;
  for (int j = 0; j < L; ++j) sum[j] = has_tail ? tail[j] : (i > 0 ? stack[i - 1][j] : (A)0);
  if (!has_tail && i > 0) --i;
  while (i > 0) {
    --i;
    for (int j = 0; j < L; ++j) sum[j] = (A)(stack[i][j] + sum[j]);
  }
  if constexpr (MODE == GK_LOGSOFTMAX) {
    A ls[L];
    for (int j = 0; j < nc; ++j) ls[j] = gk_log(sum[j]);
    for (int64_t q = 0; q < len; ++q)
      for (int j = 0; j < nc; ++j) y[q * inner + j] = (T)((A)x[q * inner + j] - m[j] - ls[j]);
  } else {
    for (int64_t q = 0; q < len; ++q)
      for (int j = 0; j < nc; ++j) y[q * inner + j] = (T)(term(q, j) / sum[j]);
  }
}

template <typename T, int MODE>
static void gk_softmax_cpu(const T* x, T* y, const gk_rows& g) {
  const bool contig = MODE != GK_HARDMAX && !g.general && g.inner == 1;
  const bool columns = MODE != GK_HARDMAX && !g.general && g.inner > 1;
  if (columns) {
    for (int64_t row = gk_part_begin(g.rows), end = gk_part_end(g.rows); row < end;) {
      const int64_t o = row / g.inner, j = row - o * g.inner;
      const int nc = (int)std::min<int64_t>({16, g.inner - j, end - row});
      const int64_t base = o * g.len * g.inner + j;
      gk_softmax_columns<T, MODE>(x + base, y + base, g.len, g.inner, nc);
      row += nc;
    }
    return;
  }
  for (int64_t row = gk_part_begin(g.rows), end = gk_part_end(g.rows); row < end; ++row) {
    const int64_t base = gk_row_base(g, row);
    if (contig) {
      gk_softmax_contig<T, MODE>(x + base, y + base, g.len);
      continue;
    }
    gk_softmax_seq<T, MODE>(gk_sm_row<T>{x + base, y + base, &g}, g.len);
  }
}
#endif

// One thread per row: short rows, or the columns of [outer, len, inner].
template <typename T, int MODE>
GK_KERNEL void gk_softmax_thread(const T* GK_RESTRICT x, T* GK_RESTRICT y, gk_rows g) {
#ifdef __CUDACC_RTC__
  GK_KERNEL_LOOP(row, g.rows) {
    const int64_t base = gk_row_base(g, row);
    gk_softmax_seq<T, MODE>(gk_sm_row<T>{x + base, y + base, &g}, g.len);
  }
#else
  gk_softmax_cpu<T, MODE>(x, y, g);
#endif
}

// Does (b, ib) beat (a, ia) as "the first maximum"? NaN beats numbers; index n
// marks a thread that saw no element.
template <typename A>
static GK_FN bool gk_sm_takes(A a, int64_t ia, A b, int64_t ib, int64_t n) {
  if (ib == n) return false;
  if (ia == n) return true;
  if (b > a || (b != b && a == a)) return true;
  return (b == a || (b != b && a != a)) && ib < ia;
}

// One block per row (long rows); blocks stride over further rows.
template <typename T, int MODE>
GK_KERNEL void gk_softmax_block(const T* GK_RESTRICT x, T* GK_RESTRICT y, gk_rows g) {
#ifdef __CUDACC_RTC__
  typedef typename gk_acc<T>::type A;
  __shared__ A sh[GK_ROWS_BLOCK];
  __shared__ int64_t shi[GK_ROWS_BLOCK];
  const int64_t n = g.len;
  for (int64_t row = blockIdx.x; row < g.rows; row += gridDim.x) {
    const int64_t base = gk_row_base(g, row);
    const gk_sm_row<T> p{x + base, y + base, &g};
    // Per-thread max and its first index, then a tree that keeps the lower index
    // on ties, so the result is the row's first maximum.
    A m = gk_limits<A>::lowest();
    int64_t arg = n;
    for (int64_t r = threadIdx.x; r < n; r += blockDim.x) {
      A v = (A)p.p[p.at(r)];
      if (gk_sm_takes(m, arg, v, r, n)) m = v, arg = r;
    }
    sh[threadIdx.x] = m;
    shi[threadIdx.x] = arg;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
      if (threadIdx.x < s && gk_sm_takes(sh[threadIdx.x], shi[threadIdx.x], sh[threadIdx.x + s], shi[threadIdx.x + s], n))
        sh[threadIdx.x] = sh[threadIdx.x + s], shi[threadIdx.x] = shi[threadIdx.x + s];
      __syncthreads();
    }
    m = sh[0];
    arg = shi[0];
    __syncthreads();
    if constexpr (MODE == GK_HARDMAX) {
      for (int64_t r = threadIdx.x; r < n; r += blockDim.x) p.q[p.at(r)] = (T)(A)(r == arg ? 1 : 0);
    } else {
      const A s = gk_block_bsum<A>(n, [&](A acc, int64_t r) { return (A)(acc + gk_exp((A)p.p[p.at(r)] - m)); }, sh);
      if constexpr (MODE == GK_LOGSOFTMAX) {
        const A ls = gk_log(s);
        for (int64_t r = threadIdx.x; r < n; r += blockDim.x) p.q[p.at(r)] = (T)((A)p.p[p.at(r)] - m - ls);
      } else {
        for (int64_t r = threadIdx.x; r < n; r += blockDim.x) p.q[p.at(r)] = (T)(gk_exp((A)p.p[p.at(r)] - m) / s);
      }
    }
  }
#else
  gk_softmax_cpu<T, MODE>(x, y, g);
#endif
}
