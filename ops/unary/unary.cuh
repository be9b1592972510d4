// Unary elementwise kernels: math functions, activations, predicates (IsNaN,
// IsInf), logical/bitwise Not, and Clip. One template, gk_unary<Op, T>, loops over
// contiguous elements; each Op computes in gk_acc<T> (f32 in float functions, f64
// in double, f16/bf16 widened to float). `y` may alias `x` (in place).
#include "backends/kernel_prelude.cuh"
#include "ops/common/math.cuh"
#include "ops/common/wrap_arith.cuh"

// Layout matches gk::UnaryParams in ops/unary/unary.h.
struct gk_unary_params {
  float alpha;
  float beta;
  float gamma;
  int32_t flags;  // IsInf: bit 0 detect_negative, bit 1 detect_positive; Gelu: 1 = tanh
};

#define GK_UN_SAME_T template <typename T> using out_t = T;
#define GK_UN_OP(name, expr)                                                  \
  struct name {                                                               \
    GK_UN_SAME_T                                                              \
    template <typename A> static GK_FN A apply(A x, const gk_unary_params& p) { return (A)(expr); } \
  };

template <typename A> static GK_FN bool gk_un_negative(A x) { return gk_is_negative(x); }
template <typename A> static GK_FN A gk_un_sigmoid(A x) { return gk_sigmoid(x); }
// log(1 + e^x) without overflow for large x: max(x, 0) + log1p(e^-|x|).
template <typename A> static GK_FN A gk_un_softplus(A x) {
  return (x > (A)0 ? x : (A)0) + gk_log1p(gk_exp(-gk_fabs(x)));
}

template <typename A> static GK_FN A gk_fmax_(A a, A b) { return a > b ? a : b; }
template <typename A> static GK_FN A gk_fmin_(A a, A b) { return a < b ? a : b; }

GK_UN_OP(gk_un_abs, gk_un_negative(x) ? gk_wrap_neg(x) : x)
GK_UN_OP(gk_un_negate, gk_wrap_neg(x))
// Sign of NaN is NaN (numpy).
GK_UN_OP(gk_un_sign, x > (A)0 ? (A)1 : (gk_un_negative(x) ? (A)-1 : (x == (A)0 ? (A)0 : x)))
GK_UN_OP(gk_un_ceil, gk_ceil(x))
GK_UN_OP(gk_un_floor, gk_floor(x))
GK_UN_OP(gk_un_round, gk_rint(x))
GK_UN_OP(gk_un_reciprocal, (A)1 / x)
GK_UN_OP(gk_un_sqrt, gk_sqrt(x))
GK_UN_OP(gk_un_exp, gk_exp(x))
GK_UN_OP(gk_un_log, gk_log(x))
GK_UN_OP(gk_un_erf, gk_erf(x))
GK_UN_OP(gk_un_sin, gk_sin(x))
GK_UN_OP(gk_un_cos, gk_cos(x))
GK_UN_OP(gk_un_tan, gk_tan(x))
GK_UN_OP(gk_un_asin, gk_asin(x))
GK_UN_OP(gk_un_acos, gk_acos(x))
GK_UN_OP(gk_un_atan, gk_atan(x))
GK_UN_OP(gk_un_sinh, gk_sinh(x))
GK_UN_OP(gk_un_cosh, gk_cosh(x))
GK_UN_OP(gk_un_asinh, gk_asinh(x))
GK_UN_OP(gk_un_acosh, gk_acosh(x))
GK_UN_OP(gk_un_atanh, gk_atanh(x))
GK_UN_OP(gk_un_tanh, gk_tanh(x))
GK_UN_OP(gk_un_not, !x)
GK_UN_OP(gk_un_bitnot, ~x)
// x < 0 rather than x > 0 so that NaN passes through.
GK_UN_OP(gk_un_relu, gk_un_negative(x) ? (A)0 : x)
GK_UN_OP(gk_un_leakyrelu, x < (A)0 ? (A)p.alpha * x : x)
GK_UN_OP(gk_un_elu, x < (A)0 ? (A)p.alpha * gk_expm1(x) : x)
GK_UN_OP(gk_un_selu, x <= (A)0 ? (A)p.gamma * ((A)p.alpha * gk_exp(x) - (A)p.alpha) : (A)p.gamma * x)
GK_UN_OP(gk_un_celu, (x > (A)0 ? x : (A)0) + (x < (A)0 ? (A)p.alpha * gk_expm1(x / (A)p.alpha) : (A)0))
// Sigmoid as 1 / (1 + e^-x): e^-x overflows to inf for x < -88 (f32) and the
// result is then exactly 0, the correctly rounded value's neighbour at worst.
GK_UN_OP(gk_un_sigmoid_op, gk_un_sigmoid(x))
GK_UN_OP(gk_un_hardsigmoid, gk_fmax_((A)0, gk_fmin_((A)1, (A)p.alpha * x + (A)p.beta)))
GK_UN_OP(gk_un_hardswish, x * gk_fmax_((A)0, gk_fmin_((A)1, x / (A)6 + (A)0.5)))
GK_UN_OP(gk_un_swish, x * gk_un_sigmoid((A)p.alpha * x))
GK_UN_OP(gk_un_mish, x * gk_tanh(gk_un_softplus(x)))
GK_UN_OP(gk_un_softplus_op, gk_un_softplus(x))
GK_UN_OP(gk_un_softsign, x / ((A)1 + gk_fabs(x)))
GK_UN_OP(gk_un_thresholdedrelu, x > (A)p.alpha ? x : (A)0)

// Gelu: exact 0.5 x (1 + erf(x / sqrt 2)), or with approximate="tanh"
// 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))).
struct gk_un_gelu {
  GK_UN_SAME_T
  template <typename A> static GK_FN A apply(A x, const gk_unary_params& p) {
    if (p.flags == 1) {
      const A k = (A)0.7978845608028654;  // sqrt(2 / pi)
      return (A)0.5 * x * ((A)1 + gk_tanh(k * (x + (A)0.044715 * x * x * x)));
    }
    return (A)0.5 * x * ((A)1 + gk_erf(x * (A)0.7071067811865476));  // 1 / sqrt(2)
  }
};

// Shrink on integer types computes in double and truncates back.
struct gk_un_shrink {
  GK_UN_SAME_T
  template <typename A> static GK_FN A apply(A x, const gk_unary_params& p) {
    if constexpr (gk_is_float_t<A>::value) {
      const A lambd = (A)p.alpha, bias = (A)p.beta;
      return x < -lambd ? x + bias : (x > lambd ? x - bias : (A)0);
    } else {
      const double v = (double)x, lambd = p.alpha, bias = p.beta;
      return (A)(v < -lambd ? v + bias : (v > lambd ? v - bias : 0.0));
    }
  }
};

struct gk_un_isnan {
  template <typename T> using out_t = bool;
  template <typename A> static GK_FN bool apply(A x, const gk_unary_params&) { return x != x; }
};
struct gk_un_isinf {
  template <typename T> using out_t = bool;
  template <typename A> static GK_FN bool apply(A x, const gk_unary_params& p) {
    const A inf = gk_limits<A>::highest();
    return ((p.flags & 2) && x == inf) || ((p.flags & 1) && x == -inf);
  }
};

template <typename Op, typename T>
GK_KERNEL void gk_unary(const T* x, typename Op::template out_t<T>* y, int64_t n, gk_unary_params p) {
  typedef typename gk_acc<T>::type A;
  typedef typename Op::template out_t<T> R;
  GK_KERNEL_LOOP(i, n) { y[i] = (R)Op::apply((A)x[i], p); }
}

// Clip: y = min(max(x, lo), hi), so lo > hi gives hi (the spec's reference) and NaN
// passes through. Bounds come from device pointers when non-null (min/max inputs
// computed at run time), else from the values (host-known inputs, attributes of
// Clip-6, or the type's limits when absent).
template <typename T>
GK_KERNEL void gk_clip(const T* x, T* y, int64_t n, const T* lo_ptr, const T* hi_ptr, T lo_value,
                       T hi_value) {
  typedef typename gk_acc<T>::type A;
  const A lo = (A)(lo_ptr ? lo_ptr[0] : lo_value);
  const A hi = (A)(hi_ptr ? hi_ptr[0] : hi_value);
  GK_KERNEL_LOOP(i, n) {
    A v = (A)x[i];
    v = v < lo ? lo : v;
    y[i] = (T)(v > hi ? hi : v);
  }
}
