// NegativeLogLikelihoodLoss over x [N, C, D] (D = prod of the spatial dims, 1 for
// [N, C]) and target [N, D]: element m = n * D + d takes x[n, target[m], d].
// SoftmaxCrossEntropyLoss is this on the log-softmax of its scores (computed by
// ops/softmax/softmax.cuh). An ignored target contributes loss 0 and weight 0; a
// target outside [0, C) that is not ignore_index is treated the same way and
// raises the error flag (OutOfRange on the host), so x is never read out of
// bounds. Sums accumulate in gk_acc<T> (f32, f64 for double).
#include "backends/kernel_prelude.cuh"
#include "ops/common/blocked_sum.cuh"
#include "ops/common/rows.cuh"

#define GK_LOSS_NONE 0
#define GK_LOSS_SUM 1
#define GK_LOSS_MEAN 2

// Must match LossParams in ops/loss/loss.cpp.
struct gk_loss_params {
  int64_t m;        // N * D
  int64_t classes;  // C
  int64_t inner;    // D
  int64_t ignore_index;
  int32_t has_ignore;
  int32_t reduction;  // GK_LOSS_*
};

// Element m's loss (-x * weight) and applied weight.
template <typename T, typename I>
static GK_FN void gk_loss_term(const T* x, const I* target, const T* weight, int32_t* flag,
                               const gk_loss_params& p, int64_t m, typename gk_acc<T>::type* loss,
                               typename gk_acc<T>::type* w) {
  typedef typename gk_acc<T>::type A;
  const int64_t t = (int64_t)target[m];
  *loss = (A)0;
  *w = (A)0;
  if (p.has_ignore && t == p.ignore_index) return;
  if (t < 0 || t >= p.classes) {
    gk_raise(flag, 1);
    return;
  }
  const int64_t n = m / p.inner;
  const int64_t d = m - n * p.inner;
  const A wt = weight ? (A)weight[t] : (A)1;
  *loss = -(A)x[(n * p.classes + t) * p.inner + d] * wt;
  *w = wt;
}

// reduction = none: y [N, D].
template <typename T, typename I>
GK_KERNEL void gk_loss_none(const T* GK_RESTRICT x, const I* GK_RESTRICT target, const T* GK_RESTRICT weight,
                            T* GK_RESTRICT y, int32_t* flag, gk_loss_params p) {
  typedef typename gk_acc<T>::type A;
  GK_KERNEL_LOOP(m, p.m) {
    A loss, w;
    gk_loss_term(x, target, weight, flag, p, m, &loss, &w);
    y[m] = (T)loss;
  }
}

// reduction = sum/mean: y is a scalar. One block (the op is not on a hot path)
// takes both sums blocked and pairwise (ops/common/blocked_sum.cuh), the same
// tree as the CPU twin's. Mean divides by the sum of applied weights.
template <typename T, typename I>
GK_KERNEL void gk_loss_reduce(const T* GK_RESTRICT x, const I* GK_RESTRICT target, const T* GK_RESTRICT weight,
                              T* GK_RESTRICT y, int32_t* flag, gk_loss_params p) {
  typedef typename gk_acc<T>::type A;
  // Term m's loss, or its applied weight, added to acc.
  const auto fold = [&](A acc, int64_t m, bool want_weight) {
    A loss, w;
    gk_loss_term(x, target, weight, flag, p, m, &loss, &w);
    return (A)(acc + (want_weight ? w : loss));
  };
  const auto fold_loss = [&](A acc, int64_t m) { return fold(acc, m, false); };
  const auto fold_weight = [&](A acc, int64_t m) { return fold(acc, m, true); };
#ifdef __CUDACC_RTC__
  __shared__ A sh[GK_ROWS_BLOCK];
  const A s = gk_block_bsum<A>(p.m, fold_loss, sh);
  const A sw = p.reduction == GK_LOSS_MEAN ? gk_block_bsum<A>(p.m, fold_weight, sh) : (A)1;
  if (threadIdx.x != 0) return;
#else
  // CPU twin (kBlocks, launched as one block).
  const A s = gk_bsum_row<A>(p.m, fold_loss);
  const A sw = p.reduction == GK_LOSS_MEAN ? gk_bsum_row<A>(p.m, fold_weight) : (A)1;
#endif
  y[0] = (T)(p.reduction == GK_LOSS_MEAN ? s / sw : s);
}
