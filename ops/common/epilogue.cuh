// The activation a fusion pass folds into a producer (Conv, Gemm, MatMul), applied
// to the accumulator after bias. Kinds match gk::Epilogue::Kind (ops/core/op.h); the
// launcher passes (kind, alpha, beta) as int32 + two float kernel arguments.
#pragma once
#include "backends/kernel_prelude.cuh"
#include "ops/common/math.cuh"

#define GK_EPI_NONE 0
#define GK_EPI_RELU 1
#define GK_EPI_CLIP 2
#define GK_EPI_SIGMOID 3
#define GK_EPI_SILU 4
#define GK_EPI_HARD_SIGMOID 5
#define GK_EPI_HARD_SWISH 6
#define GK_EPI_LEAKY_RELU 7
#define GK_EPI_TANH 8

// F is float or double; the same formulas as the standalone activation ops. Forced
// inline on the CPU: the epilogue loops (store_row_part) pass a constant kind and
// vectorise only when the switch folds away; out of line, a 32x112x112 depthwise
// with SiLU spent 78% of its time in calls (2.2 ms against 0.18 with Relu).
#ifdef __CUDACC_RTC__
#define GK_EPI_INLINE
#else
#define GK_EPI_INLINE __attribute__((always_inline))
#endif
template <typename F>
static GK_FN GK_EPI_INLINE F gk_epilogue_apply(F x, int32_t kind, float alpha, float beta) {
  const F one = (F)1, zero = (F)0;
  switch (kind) {
    case GK_EPI_RELU: return x < zero ? zero : x;
    case GK_EPI_CLIP: {
      F lo = (F)alpha, hi = (F)beta;
      F y = x < lo ? lo : x;
      return y > hi ? hi : y;
    }
    case GK_EPI_SIGMOID: return gk_sigmoid(x);
    case GK_EPI_SILU: return x * gk_sigmoid(x);
    case GK_EPI_HARD_SIGMOID: {
      F y = (F)alpha * x + (F)beta;
      y = y < zero ? zero : y;
      return y > one ? one : y;
    }
    case GK_EPI_HARD_SWISH: {
      F y = x * ((F)1 / (F)6) + (F)0.5;
      y = y < zero ? zero : y;
      return x * (y > one ? one : y);
    }
    case GK_EPI_LEAKY_RELU: return x < zero ? (F)alpha * x : x;
    case GK_EPI_TANH: return gk_tanh(x);
    default: return x;
  }
}

// Accumulator types: f32/f64 directly, integers through double (only the
// comparisons — Relu, Clip — make sense there, and they stay exact).
static GK_FN float gk_epilogue(float x, int32_t k, float a, float b) { return gk_epilogue_apply(x, k, a, b); }
static GK_FN double gk_epilogue(double x, int32_t k, float a, float b) { return gk_epilogue_apply(x, k, a, b); }
template <typename I>
static GK_FN I gk_epilogue(I x, int32_t k, float a, float b) {
  return k == GK_EPI_NONE ? x : (I)gk_epilogue_apply((double)x, k, a, b);
}
