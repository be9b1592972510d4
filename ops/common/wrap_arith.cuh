// Integer arithmetic that wraps (two's complement), as numpy's and ONNX Runtime's
// does, for every kernel that adds, subtracts, multiplies or negates values of a
// model's integer type. Computed unsigned and at least 32 bits wide so it stays
// defined: signed int32/int64 overflow, and 8/16-bit operands promoted to a signed
// int (65535 * 65535), are undefined (UBSan: sweep cases Add.wrap.s32 and
// Mul.wrap.s32; fuzz smoke, ReduceSumSquare over int32 49518594). Floats pass through.
#pragma once
#include "backends/kernel_prelude.cuh"

template <bool Wide> struct gk_wrap_uint { typedef unsigned int type; };
template <> struct gk_wrap_uint<true> { typedef unsigned long long type; };

template <typename A>
static GK_FN A gk_wrap_add(A a, A b) {
  if constexpr (gk_is_float_t<A>::value) {
    return (A)(a + b);
  } else {
    typedef typename gk_wrap_uint<(sizeof(A) > 4)>::type U;
    return (A)((U)a + (U)b);
  }
}
template <typename A>
static GK_FN A gk_wrap_sub(A a, A b) {
  if constexpr (gk_is_float_t<A>::value) {
    return (A)(a - b);
  } else {
    typedef typename gk_wrap_uint<(sizeof(A) > 4)>::type U;
    return (A)((U)a - (U)b);
  }
}
template <typename A>
static GK_FN A gk_wrap_mul(A a, A b) {
  if constexpr (gk_is_float_t<A>::value) {
    return (A)(a * b);
  } else {
    typedef typename gk_wrap_uint<(sizeof(A) > 4)>::type U;
    return (A)((U)a * (U)b);
  }
}
// -x; INT_MIN stays INT_MIN.
template <typename A>
static GK_FN A gk_wrap_neg(A x) {
  if constexpr (gk_is_float_t<A>::value) {
    return -x;
  } else {
    typedef typename gk_wrap_uint<(sizeof(A) > 4)>::type U;
    return (A)((U)0 - (U)x);
  }
}
// |x|; |INT_MIN| stays INT_MIN (numpy's abs).
template <typename A>
static GK_FN A gk_wrap_abs(A x) {
  if constexpr (gk_is_float_t<A>::value) return x < (A)0 ? -x : x;
  else if constexpr ((A)(-1) < (A)0) return x < (A)0 ? gk_wrap_neg(x) : x;
  else return x;
}
