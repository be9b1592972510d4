// Reductions over rows (ops/common/rows.cuh): ReduceSum/Mean/Max/Min/Prod/
// L1/L2/LogSum/LogSumExp/SumSquare, ArgMax/ArgMin, and the scans CumSum/CumProd.
//
// Order of accumulation: the sums (Sum, Mean, L1, L2, LogSum, SumSquare and
// LogSumExp's sum of exponentials) are blocked and pairwise (ops/common/
// blocked_sum.cuh; squares by FMA), the same tree in gk_reduce_thread (one thread
// per row), gk_reduce_block (one thread block per row) and the CPU twin, so both
// backends agree bit for bit. Max, Min and Prod fold in ascending order (Max and Min
// are exact in any order). f16/bf16 accumulate in f32, integers in their own type
// (sums wrap, as numpy's do).
#include "backends/kernel_prelude.cuh"
#include "ops/common/blocked_sum.cuh"
#include "ops/common/math.cuh"
#include "ops/common/rows.cuh"
#include "ops/common/wrap_arith.cuh"

#define GK_RED_SUM 0
#define GK_RED_MEAN 1
#define GK_RED_MAX 2
#define GK_RED_MIN 3
#define GK_RED_PROD 4
#define GK_RED_L1 5
#define GK_RED_L2 6
#define GK_RED_LOGSUM 7
#define GK_RED_LOGSUMEXP 8
#define GK_RED_SUMSQUARE 9

// The type log/exp/sqrt run in: the float types themselves, double for integers.
template <typename A> struct gk_red_float { typedef double type; };
template <> struct gk_red_float<float> { typedef float type; };
template <bool C, typename X, typename Y> struct gk_red_pick { typedef X type; };
template <typename X, typename Y> struct gk_red_pick<false, X, Y> { typedef Y type; };

template <int OP, typename A>
static GK_FN A gk_red_init() {
  if constexpr (OP == GK_RED_PROD) return (A)1;
  else if constexpr (OP == GK_RED_MAX) return gk_limits<A>::lowest();
  else if constexpr (OP == GK_RED_MIN) return gk_limits<A>::highest();
  else return (A)0;
}

template <int OP, typename A>
static GK_FN A gk_red_map(A x) {
  if constexpr (OP == GK_RED_L1) {
    return gk_wrap_abs(x);
  } else if constexpr (OP == GK_RED_L2 || OP == GK_RED_SUMSQUARE) {
    return gk_wrap_mul(x, x);
  } else {
    return x;
  }
}

// Max/Min propagate NaN (numpy's rule) wherever it sits in the row.
template <int OP, typename A>
static GK_FN A gk_red_combine(A a, A b) {
  if constexpr (OP == GK_RED_PROD) return gk_wrap_mul(a, b);
  else if constexpr (OP == GK_RED_MAX) return (b > a || b != b) ? b : a;
  else if constexpr (OP == GK_RED_MIN) return (b < a || b != b) ? b : a;
  else return gk_wrap_add(a, b);
}

// The reductions that are sums of mapped terms, taken blocked (blocked_sum.cuh).
template <int OP> struct gk_red_is_sum {
  static const bool value = OP == GK_RED_SUM || OP == GK_RED_MEAN || OP == GK_RED_L1 || OP == GK_RED_L2 ||
                            OP == GK_RED_LOGSUM || OP == GK_RED_SUMSQUARE;
};

// One term of a sum-like reduction added to acc: x, |x|, or x * x by FMA.
template <int OP, typename A>
static GK_FN A gk_red_fold(A acc, A x) {
  if constexpr (OP == GK_RED_L2 || OP == GK_RED_SUMSQUARE) return gk_sum_fma(x, x, acc);
  else return gk_wrap_add(acc, gk_red_map<OP, A>(x));
}

template <int OP>
struct gk_red_fn {
  template <typename A> GK_FN A operator()(A a, A b) const { return gk_red_combine<OP, A>(a, b); }
};

template <int OP, typename A>
static GK_FN A gk_red_finalize(A acc, int64_t len) {
  typedef typename gk_red_float<A>::type M;
  if constexpr (OP == GK_RED_MEAN) {
    if constexpr (gk_is_float_t<A>::value) return acc / (A)len;  // empty: 0/0 = NaN
    else return len ? (A)(acc / (A)len) : (A)0;
  } else if constexpr (OP == GK_RED_L2) {
    return (A)gk_sqrt((M)acc);
  } else if constexpr (OP == GK_RED_LOGSUM) {
    return (A)gk_log((M)acc);  // empty: log(0) = -inf
  } else {
    return acc;
  }
}

// LogSumExp as m + log(sum(exp(x - m))) with m the row's max; an infinite or NaN
// max is the answer itself (empty rows give -inf, the spec's identity).
template <typename M>
static GK_FN bool gk_red_finite(M m) {
  return m > gk_limits<M>::lowest() && m < gk_limits<M>::highest();
}

// A row's elements: `stride` apart, or through the general map.
template <typename T>
struct gk_red_row {
  const T* p;
  int64_t stride;
  const gk_rows* g;
  GK_FN T operator[](int64_t r) const { return g->general ? p[gk_offset(g->elem_map, r)] : p[r * stride]; }
};

// One row folded in ascending order.
template <typename T, int OP>
static GK_FN T gk_reduce_seq(const gk_red_row<T>& row, int64_t n) {
  typedef typename gk_acc<T>::type A;
  if constexpr (OP == GK_RED_LOGSUMEXP) {
    typedef typename gk_red_float<A>::type M;
    if (!gk_is_float_t<A>::value && n == 0) return (T)(A)0;  // undefined for integers
    M m = gk_limits<M>::lowest();
    for (int64_t r = 0; r < n; ++r) m = gk_red_combine<GK_RED_MAX, M>(m, (M)(A)row[r]);
    if (!gk_red_finite(m)) return (T)(A)m;
    const M sum = gk_bsum_row<M>(n, [&](M s, int64_t r) { return (M)(s + gk_exp((M)(A)row[r] - m)); });
    return (T)(A)(m + gk_log(sum));
  } else if constexpr (gk_red_is_sum<OP>::value) {
    const A acc = gk_bsum_row<A>(n, [&](A s, int64_t r) { return gk_red_fold<OP, A>(s, (A)row[r]); });
    return (T)gk_red_finalize<OP, A>(acc, n);
  } else {
    A acc = gk_red_init<OP, A>();
    for (int64_t r = 0; r < n; ++r) acc = gk_red_combine<OP, A>(acc, gk_red_map<OP, A>((A)row[r]));
    return (T)gk_red_finalize<OP, A>(acc, n);
  }
}

#ifndef __CUDACC_RTC__
// CPU twin of both reduce kernels: this worker's share of the rows, each folded as
// gk_reduce_seq folds it (bit-equal to both CUDA kernels). With inner > 1 the rows
// are columns of [outer, len, inner]: a chunk of accumulators sweeps the input in
// memory order instead of striding through it once per row; for the sums each
// column keeps its own block and carry stack, pushed at the same rows as
// gk_bsum_row pushes them.
template <typename T, int OP>
static void gk_reduce_cpu(const T* x, T* y, const gk_rows& g) {
  typedef typename gk_acc<T>::type A;
  if (g.general || g.inner == 1) {
    for (int64_t row = gk_part_begin(g.rows), end = gk_part_end(g.rows); row < end; ++row)
      y[row] = gk_reduce_seq<T, OP>(gk_red_row<T>{x + gk_row_base(g, row), g.inner, &g}, g.len);
    return;
  }
  constexpr int64_t kChunk = 64;  // untuned
  const int64_t inner = g.inner, len = g.len;
  const int64_t chunks = (inner + kChunk - 1) / kChunk;
  const int64_t units = g.rows / inner * chunks;
  for (int64_t u = gk_part_begin(units), end = gk_part_end(units); u < end; ++u) {
    const int64_t o = u / chunks, j0 = (u % chunks) * kChunk;
    const int64_t w = (inner - j0 < kChunk) ? inner - j0 : kChunk;
    const T* base = x + o * len * inner + j0;
    T* out = y + o * inner + j0;
    if constexpr (OP == GK_RED_LOGSUMEXP) {
      for (int64_t j = 0; j < w; ++j) out[j] = gk_reduce_seq<T, OP>(gk_red_row<T>{base + j, inner, &g}, len);
    } else if constexpr (gk_red_is_sum<OP>::value) {
      gk_pairwise<A> tree[kChunk];
      A blk[kChunk];
      for (int64_t j = 0; j < w; ++j) tree[j].init(), blk[j] = (A)0;
      for (int64_t r0 = 0; r0 < len; r0 += GK_SUM_BLOCK) {
        const int64_t r1 = r0 + GK_SUM_BLOCK < len ? r0 + GK_SUM_BLOCK : len;
        for (int64_t j = 0; j < w; ++j) blk[j] = (A)0;
        for (int64_t r = r0; r < r1; ++r) {
          const T* p = base + r * inner;
          for (int64_t j = 0; j < w; ++j) blk[j] = gk_red_fold<OP, A>(blk[j], (A)p[j]);
        }
        if (r1 - r0 == GK_SUM_BLOCK)
          for (int64_t j = 0; j < w; ++j) tree[j].push(blk[j]);
      }
      const bool tail = len % GK_SUM_BLOCK != 0;
      for (int64_t j = 0; j < w; ++j) out[j] = (T)gk_red_finalize<OP, A>(tree[j].total(blk[j], tail), len);
    } else {
      A acc[kChunk];
      for (int64_t j = 0; j < w; ++j) acc[j] = gk_red_init<OP, A>();
      for (int64_t r = 0; r < len; ++r) {
        const T* p = base + r * inner;
        for (int64_t j = 0; j < w; ++j) acc[j] = gk_red_combine<OP, A>(acc[j], gk_red_map<OP, A>((A)p[j]));
      }
      for (int64_t j = 0; j < w; ++j) out[j] = (T)gk_red_finalize<OP, A>(acc[j], len);
    }
  }
}
#endif

// One thread per output element (short rows, or many column rows).
template <typename T, int OP>
GK_KERNEL void gk_reduce_thread(const T* GK_RESTRICT x, T* GK_RESTRICT y, gk_rows g) {
#ifdef __CUDACC_RTC__
  GK_KERNEL_LOOP(row, g.rows) {
    y[row] = gk_reduce_seq<T, OP>(gk_red_row<T>{x + gk_row_base(g, row), g.inner, &g}, g.len);
  }
#else
  gk_reduce_cpu<T, OP>(x, y, g);
#endif
}

// One block per output element (long rows); blocks stride over further rows.
template <typename T, int OP>
GK_KERNEL void gk_reduce_block(const T* GK_RESTRICT x, T* GK_RESTRICT y, gk_rows g) {
#ifdef __CUDACC_RTC__
  typedef typename gk_acc<T>::type A;
  typedef typename gk_red_float<A>::type M;
  typedef typename gk_red_pick<OP == GK_RED_LOGSUMEXP, M, A>::type S;
  __shared__ S sh[GK_ROWS_BLOCK];
  const int64_t n = g.len;
  for (int64_t row = blockIdx.x; row < g.rows; row += gridDim.x) {
    const gk_red_row<T> p{x + gk_row_base(g, row), g.inner, &g};
    if constexpr (OP == GK_RED_LOGSUMEXP) {
      M m = gk_limits<M>::lowest();
      for (int64_t r = threadIdx.x; r < n; r += blockDim.x) m = gk_red_combine<GK_RED_MAX, M>(m, (M)(A)p[r]);
      m = gk_block_reduce(m, sh, gk_red_fn<GK_RED_MAX>());
      if (!gk_red_finite(m)) {
        if (threadIdx.x == 0) y[row] = (T)(A)((!gk_is_float_t<A>::value && n == 0) ? (M)0 : m);
        continue;
      }
      const M sum = gk_block_bsum<M>(n, [&](M s, int64_t r) { return (M)(s + gk_exp((M)(A)p[r] - m)); }, sh);
      if (threadIdx.x == 0) y[row] = (T)(A)(m + gk_log(sum));
    } else if constexpr (gk_red_is_sum<OP>::value) {
      const A acc = gk_block_bsum<A>(n, [&](A s, int64_t r) { return gk_red_fold<OP, A>(s, (A)p[r]); }, sh);
      if (threadIdx.x == 0) y[row] = (T)gk_red_finalize<OP, A>(acc, n);
    } else {
      A acc = gk_red_init<OP, A>();
      for (int64_t r = threadIdx.x; r < n; r += blockDim.x)
        acc = gk_red_combine<OP, A>(acc, gk_red_map<OP, A>((A)p[r]));
      acc = gk_block_reduce(acc, sh, gk_red_fn<OP>());
      if (threadIdx.x == 0) y[row] = (T)gk_red_finalize<OP, A>(acc, n);
    }
  }
#else
  gk_reduce_cpu<T, OP>(x, y, g);
#endif
}

// ArgMax (IS_MAX = 1) / ArgMin over rows of one axis; ties go to the first index, or
// the last with select_last. A NaN wins over numbers (numpy's argmax/argmin rule).
template <typename T, int IS_MAX>
GK_KERNEL void gk_argreduce(const T* GK_RESTRICT x, int64_t* GK_RESTRICT y, gk_rows g, int32_t select_last) {
  typedef typename gk_acc<T>::type A;
  GK_KERNEL_LOOP(row, g.rows) {
    const T* p = x + gk_row_base(g, row);
    A best = (A)p[0];
    int64_t at = 0;
    for (int64_t r = 1; r < g.len && best == best; ++r) {
      A v = (A)p[r * g.inner];
      bool better = IS_MAX ? v > best : v < best;
      if (better || v != v || (select_last && v == best)) best = v, at = r;
    }
    y[row] = at;
  }
}

// CumSum (PROD = 0) / CumProd along one axis: each row scanned in order.
template <typename T, int PROD>
GK_KERNEL void gk_cumulative(const T* GK_RESTRICT x, T* GK_RESTRICT y, gk_rows g, int32_t exclusive,
                             int32_t reverse) {
  typedef typename gk_acc<T>::type A;
  GK_KERNEL_LOOP(row, g.rows) {
    const int64_t base = gk_row_base(g, row);
    A acc = PROD ? (A)1 : (A)0;
    for (int64_t k = 0; k < g.len; ++k) {
      const int64_t at = base + (reverse ? g.len - 1 - k : k) * g.inner;
      const A v = (A)x[at];
      if (exclusive) y[at] = (T)acc;
      acc = PROD ? gk_wrap_mul(acc, v) : gk_wrap_add(acc, v);
      if (!exclusive) y[at] = (T)acc;
    }
  }
}
