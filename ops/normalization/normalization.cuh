// Normalisation kernels. gk_norm_rows normalises each row (ops/common/
// rows.cuh) by its own mean and variance, then applies an optional per-channel
// scale and bias: InstanceNormalization, LayerNormalization, GroupNormalization and
// MeanVarianceNormalization are all this kernel with different rows and affine
// indexing. The variance is two-pass (mean first, then mean squared deviation),
// as the ONNX function bodies define it. BatchNormalization (inference), LRN and
// LpNormalization have their own kernels. Every sum here (means, variances with
// their squares by FMA, norms, LRN windows) is blocked and pairwise (ops/common/
// blocked_sum.cuh), the same tree on the CPU and in the CUDA block kernels, so
// both backends agree bit for bit.
#include "backends/kernel_prelude.cuh"
#include "ops/common/blocked_sum.cuh"
#include "ops/common/math.cuh"
#include "ops/common/rows.cuh"

// Compute type: f32 (f16/bf16 widen to it) unless the data or the stash is f64.
template <typename X, typename Y> struct gk_norm_wide { typedef float type; };
template <typename Y> struct gk_norm_wide<double, Y> { typedef double type; };
template <> struct gk_norm_wide<float, double> { typedef double type; };

struct gk_norm_params {
  gk_rows g;
  double eps;
  int32_t mvn;  // 1: (x - mean) / (sqrt(var) + eps); 0: (x - mean) / sqrt(var + eps)
  int32_t pad_;
  // Scale/bias element of row `row`, element r: (row % a_mod) * a_mul + r / a_div.
  int64_t a_mod;
  int64_t a_mul;
  int64_t a_div;
};

template <typename C>
static GK_FN C gk_norm_inv(C var, const gk_norm_params& p) {
  return p.mvn ? (C)1 / (gk_sqrt(var) + (C)p.eps) : (C)1 / gk_sqrt(var + (C)p.eps);
}

template <typename T, typename C>
static GK_FN void gk_norm_write(const T* x, const T* scale, const T* bias, T* y, const gk_norm_params& p,
                                int64_t row, int64_t r, int64_t off, C mean, C inv) {
  typedef typename gk_acc<T>::type A;
  const int64_t k = (row % p.a_mod) * p.a_mul + r / p.a_div;
  const C s = scale ? (C)(A)scale[k] : (C)1;
  const C b = bias ? (C)(A)bias[k] : (C)0;
  y[off] = (T)(A)(((C)(A)x[off] - mean) * inv * s + b);
}

#ifndef __CUDACC_RTC__
// gk_bsum_row over a contiguous row of n terms, x[r] (squares: (x[r] - mean)^2 by
// FMA), eight blocks of 32 at a time: each block's sum is its own chain from zero, so
// eight chains run side by side, and the block sums enter the tree in order.
template <typename T, typename C>
static C gk_norm_contiguous_sum(const T* x, int64_t n, C mean, bool squares) {
  typedef typename gk_acc<T>::type A;
  constexpr int kGroup = 8;
  gk_pairwise<C> tree;
  tree.init();
  const int64_t blocks = n / GK_SUM_BLOCK;
  for (int64_t b0 = 0; b0 < blocks; b0 += kGroup) {
    const int nb = blocks - b0 < kGroup ? (int)(blocks - b0) : kGroup;
    C s[kGroup] = {};
    const T* xb = x + b0 * GK_SUM_BLOCK;
    if (squares) {
      for (int j = 0; j < GK_SUM_BLOCK; ++j)
        for (int q = 0; q < kGroup; ++q)
          if (q < nb) {
            const C d = (C)(A)xb[q * GK_SUM_BLOCK + j] - mean;
            s[q] = gk_sum_fma(d, d, s[q]);
          }
    } else {
      for (int j = 0; j < GK_SUM_BLOCK; ++j)
        for (int q = 0; q < kGroup; ++q)
          if (q < nb) s[q] = (C)(s[q] + (C)(A)xb[q * GK_SUM_BLOCK + j]);
    }
    for (int q = 0; q < nb; ++q) tree.push(s[q]);
  }
  C tail = (C)0;
  for (int64_t r = blocks * GK_SUM_BLOCK; r < n; ++r) {
    const C v = (C)(A)x[r];
    tail = squares ? gk_sum_fma(v - mean, v - mean, tail) : (C)(tail + v);
  }
  return tree.total(tail, (n % GK_SUM_BLOCK) != 0);
}

// CPU twin: this worker's share of the rows, each in order.
template <typename T, typename U>
static void gk_norm_cpu(const T* x, const T* scale, const T* bias, T* y, U* mean_out, U* inv_out,
                        const gk_norm_params& p) {
  typedef typename gk_acc<T>::type A;
  typedef typename gk_norm_wide<A, U>::type C;
  const gk_rows& g = p.g;
  const int64_t n = g.len;
  // Contiguous rows (LayerNormalization over the last axis): the blocks' sums side by
  // side and the affine index without divisions (per element, r / a_div and the
  // sequential block chains made ConvNeXt-Tiny's 23 LayerNorms 12% of its run).
  if (!g.general && g.inner == 1) {
    for (int64_t row = gk_part_begin(g.rows), end = gk_part_end(g.rows); row < end; ++row) {
      const T* xr = x + gk_row_base(g, row);
      const C mean = gk_norm_contiguous_sum<T, C>(xr, n, (C)0, false) / (C)n;
      const C inv = gk_norm_inv(gk_norm_contiguous_sum<T, C>(xr, n, mean, true) / (C)n, p);
      const int64_t k0 = (row % p.a_mod) * p.a_mul;
      T* yr = y + gk_row_base(g, row);
      if (p.a_div == 1) {
        for (int64_t r = 0; r < n; ++r) {
          const C s = scale ? (C)(A)scale[k0 + r] : (C)1;
          const C b = bias ? (C)(A)bias[k0 + r] : (C)0;
          yr[r] = (T)(A)(((C)(A)xr[r] - mean) * inv * s + b);
        }
      } else {
        for (int64_t r = 0; r < n; ++r) {
          const int64_t k = k0 + r / p.a_div;
          const C s = scale ? (C)(A)scale[k] : (C)1;
          const C b = bias ? (C)(A)bias[k] : (C)0;
          yr[r] = (T)(A)(((C)(A)xr[r] - mean) * inv * s + b);
        }
      }
      if (mean_out) mean_out[row] = (U)mean;
      if (inv_out) inv_out[row] = (U)inv;
    }
    return;
  }
  for (int64_t row = gk_part_begin(g.rows), end = gk_part_end(g.rows); row < end; ++row) {
    const int64_t base = gk_row_base(g, row);
    const C mean = gk_bsum_row<C>(n, [&](C s, int64_t r) { return (C)(s + (C)(A)x[base + gk_row_step(g, r)]); }) / (C)n;
    const C sq = gk_bsum_row<C>(n, [&](C s, int64_t r) {
      const C d = (C)(A)x[base + gk_row_step(g, r)] - mean;
      return gk_sum_fma(d, d, s);
    });
    const C inv = gk_norm_inv(sq / (C)n, p);
    for (int64_t r = 0; r < n; ++r) gk_norm_write<T, C>(x, scale, bias, y, p, row, r, base + gk_row_step(g, r), mean, inv);
    if (mean_out) mean_out[row] = (U)mean;
    if (inv_out) inv_out[row] = (U)inv;
  }
}
#endif

// One block per row; blocks stride over further rows. Mean and InvStdDev outputs
// (LayerNormalization) may be null.
template <typename T, typename U>
GK_KERNEL void gk_norm_rows(const T* x, const T* scale, const T* bias, T* y, U* mean_out, U* inv_out,
                            gk_norm_params p) {
#ifdef __CUDACC_RTC__
  typedef typename gk_acc<T>::type A;
  typedef typename gk_norm_wide<A, U>::type C;
  __shared__ C sh[GK_ROWS_BLOCK];
  const gk_rows& g = p.g;
  const int64_t n = g.len;
  for (int64_t row = blockIdx.x; row < g.rows; row += gridDim.x) {
    const int64_t base = gk_row_base(g, row);
    const C mean =
        gk_block_bsum<C>(n, [&](C s, int64_t r) { return (C)(s + (C)(A)x[base + gk_row_step(g, r)]); }, sh) / (C)n;
    const C sq = gk_block_bsum<C>(
        n,
        [&](C s, int64_t r) {
          const C d = (C)(A)x[base + gk_row_step(g, r)] - mean;
          return gk_sum_fma(d, d, s);
        },
        sh);
    const C inv = gk_norm_inv(sq / (C)n, p);
    for (int64_t r = threadIdx.x; r < n; r += blockDim.x)
      gk_norm_write<T, C>(x, scale, bias, y, p, row, r, base + gk_row_step(g, r), mean, inv);
    if (threadIdx.x == 0) {
      if (mean_out) mean_out[row] = (U)mean;
      if (inv_out) inv_out[row] = (U)inv;
    }
  }
#else
  gk_norm_cpu<T, U>(x, scale, bias, y, mean_out, inv_out, p);
#endif
}

// BatchNormalization, inference form: channel c = (i / inner) % channels of an
// [N, channels, inner] tensor. Scale/bias (P) and mean/var (Q) may have their own
// float type (opset 15).
template <typename T, typename P, typename Q>
GK_KERNEL void gk_batchnorm(const T* GK_RESTRICT x, const P* GK_RESTRICT scale, const P* GK_RESTRICT bias,
                            const Q* GK_RESTRICT mean, const Q* GK_RESTRICT var, T* GK_RESTRICT y, int64_t n,
                            int64_t channels, int64_t inner, double eps) {
  typedef typename gk_norm_wide<typename gk_acc<T>::type, float>::type C;
  typedef typename gk_acc<P>::type PA;
  typedef typename gk_acc<Q>::type QA;
  typedef typename gk_acc<T>::type A;
#ifdef __CUDACC_RTC__
  GK_KERNEL_LOOP(i, n) {
    const int64_t c = (i / inner) % channels;
    const C inv = (C)1 / gk_sqrt((C)(QA)var[c] + (C)eps);
    y[i] = (T)(A)(((C)(A)x[i] - (C)(QA)mean[c]) * inv * (C)(PA)scale[c] + (C)(PA)bias[c]);
  }
#else
  // The worker's range cut at channel boundaries: the channel's constants once per
  // run and a division-free inner loop that vectorises (the per-element form took
  // 37 ms on a 1x24x320x320 tensor, 2 cores). Same expression, same rounding.
  for (int64_t i = gk_part_begin(n), end = gk_part_end(n); i < end;) {
    const int64_t row = i / inner, c = row % channels;
    const int64_t run_end = (row + 1) * inner < end ? (row + 1) * inner : end;
    const C m = (C)(QA)mean[c], sc = (C)(PA)scale[c], b = (C)(PA)bias[c];
    const C inv = (C)1 / gk_sqrt((C)(QA)var[c] + (C)eps);
    for (; i < run_end; ++i) y[i] = (T)(A)(((C)(A)x[i] - m) * inv * sc + b);
  }
#endif
}

// BatchNormalization, training form: one thread per channel of [N, channels, inner]
// takes the batch mean and population variance (double accumulation, two passes)
// and blends the running statistics (null pointers: outputs not requested).
// Channel-serial by design: training-mode BatchNormalization in an inference
// model is rare, and this keeps it one kernel with no atomics.
template <typename T, typename Q>
GK_KERNEL void gk_batchnorm_stats(const T* GK_RESTRICT x, const Q* GK_RESTRICT in_mean, const Q* GK_RESTRICT in_var,
                                  Q* GK_RESTRICT batch_mean, Q* GK_RESTRICT batch_var, Q* GK_RESTRICT run_mean,
                                  Q* GK_RESTRICT run_var, int64_t batch, int64_t channels, int64_t inner,
                                  double momentum) {
  typedef typename gk_acc<T>::type A;
  typedef typename gk_acc<Q>::type QA;
  GK_KERNEL_LOOP(c, channels) {
    const int64_t terms = batch * inner;
    const double count = (double)terms;
    // Term k of the channel: batch entry k / inner, position k % inner.
    const auto at = [&](int64_t k) { return (double)(A)x[((k / inner) * channels + c) * inner + k % inner]; };
    const double sum = gk_bsum_row<double>(terms, [&](double s, int64_t k) { return s + at(k); });
    const double mean = count > 0 ? sum / count : 0;
    const double sq = gk_bsum_row<double>(terms, [&](double s, int64_t k) {
      const double d = at(k) - mean;
      return gk_sum_fma(d, d, s);
    });
    const double var = count > 0 ? sq / count : 0;
    batch_mean[c] = (Q)(QA)mean;
    batch_var[c] = (Q)(QA)var;
    if (run_mean) run_mean[c] = (Q)(QA)((double)(QA)in_mean[c] * momentum + mean * (1 - momentum));
    if (run_var) run_var[c] = (Q)(QA)((double)(QA)in_var[c] * momentum + var * (1 - momentum));
  }
}

// LRN across channels of [N, C, inner]: y = x / (bias + alpha / size * sum of
// squares over the window [c - (size-1)/2, c + ceil((size-1)/2)]) ^ beta.
template <typename T>
GK_KERNEL void gk_lrn(const T* GK_RESTRICT x, T* GK_RESTRICT y, int64_t n, int64_t channels, int64_t inner,
                      int32_t size, float alpha, float beta, float bias) {
  typedef typename gk_norm_wide<typename gk_acc<T>::type, float>::type C;
  typedef typename gk_acc<T>::type A;
  const int64_t lo_w = (size - 1) / 2, hi_w = size - 1 - lo_w;
  GK_KERNEL_LOOP(i, n) {
    const int64_t c = (i / inner) % channels;
    const int64_t c0 = c - lo_w < 0 ? 0 : c - lo_w;
    const int64_t c1 = c + hi_w >= channels ? channels - 1 : c + hi_w;
    const T* col = x + (i - c * inner);
    const C sum = gk_bsum_row<C>(c1 - c0 + 1, [&](C s, int64_t k) {
      const C v = (C)(A)col[(c0 + k) * inner];
      return gk_sum_fma(v, v, s);
    });
    y[i] = (T)(A)((C)(A)x[i] / gk_pow((C)bias + (C)alpha / (C)size * sum, (C)beta));
  }
}

// LpNormalization (p = 1 or 2) along rows; a zero norm gives zeros.
template <typename T, typename C>
static GK_FN C gk_lp_fold(C acc, T v, int32_t p) {
  const C c = (C)(typename gk_acc<T>::type)v;
  return p == 1 ? (C)(acc + (c < (C)0 ? -c : c)) : gk_sum_fma(c, c, acc);
}

template <typename T>
GK_KERNEL void gk_lpnorm(const T* GK_RESTRICT x, T* GK_RESTRICT y, gk_rows g, int32_t p) {
  typedef typename gk_acc<T>::type A;
  typedef typename gk_norm_wide<A, float>::type C;
#ifdef __CUDACC_RTC__
  __shared__ C sh[GK_ROWS_BLOCK];
  for (int64_t row = blockIdx.x; row < g.rows; row += gridDim.x) {
    const int64_t base = gk_row_base(g, row);
    const C acc =
        gk_block_bsum<C>(g.len, [&](C s, int64_t r) { return gk_lp_fold<T, C>(s, x[base + gk_row_step(g, r)], p); }, sh);
    const C norm = p == 1 ? acc : gk_sqrt(acc);
    for (int64_t r = threadIdx.x; r < g.len; r += blockDim.x) {
      const int64_t off = base + gk_row_step(g, r);
      y[off] = (T)(A)(norm == (C)0 ? (C)0 : (C)(A)x[off] / norm);
    }
  }
#else
  for (int64_t row = gk_part_begin(g.rows), end = gk_part_end(g.rows); row < end; ++row) {
    const int64_t base = gk_row_base(g, row);
    const C acc = gk_bsum_row<C>(g.len, [&](C s, int64_t r) { return gk_lp_fold<T, C>(s, x[base + gk_row_step(g, r)], p); });
    const C norm = p == 1 ? acc : gk_sqrt(acc);
    for (int64_t r = 0; r < g.len; ++r) {
      const int64_t off = base + gk_row_step(g, r);
      y[off] = (T)(A)(norm == (C)0 ? (C)0 : (C)(A)x[off] / norm);
    }
  }
#endif
}
