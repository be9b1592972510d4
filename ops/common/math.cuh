// Float/double overloads of the math library, so one template computes f32 in the
// float functions (expf, erff, ...) and f64 in the double ones; f16/bf16 arrive
// here already widened to float (gk_acc). NVRTC has these as builtins; on the host
// they are <cmath>'s global C functions.
#pragma once
#include "backends/kernel_prelude.cuh"

#define GK_MATH1(name, ffn, dfn)                              \
  static GK_FN float name(float x) { return ffn(x); }        \
  static GK_FN double name(double x) { return dfn(x); }
#ifdef __CUDACC_RTC__
GK_MATH1(gk_exp, expf, exp)
#endif
GK_MATH1(gk_expm1, expm1f, expm1)
GK_MATH1(gk_log, logf, log)
GK_MATH1(gk_log1p, log1pf, log1p)
GK_MATH1(gk_sqrt, sqrtf, sqrt)
#ifdef __CUDACC_RTC__
GK_MATH1(gk_erf, erff, erf)
#endif
GK_MATH1(gk_sin, sinf, sin)
GK_MATH1(gk_cos, cosf, cos)
GK_MATH1(gk_tan, tanf, tan)
GK_MATH1(gk_asin, asinf, asin)
GK_MATH1(gk_acos, acosf, acos)
GK_MATH1(gk_atan, atanf, atan)
GK_MATH1(gk_sinh, sinhf, sinh)
GK_MATH1(gk_cosh, coshf, cosh)
#ifdef __CUDACC_RTC__
GK_MATH1(gk_tanh, tanhf, tanh)
#endif
GK_MATH1(gk_asinh, asinhf, asinh)
GK_MATH1(gk_acosh, acoshf, acosh)
GK_MATH1(gk_atanh, atanhf, atanh)
GK_MATH1(gk_floor, floorf, floor)
GK_MATH1(gk_ceil, ceilf, ceil)
GK_MATH1(gk_rint, rintf, rint)  // round half to even (the default rounding mode)
GK_MATH1(gk_fabs, fabsf, fabs)
#undef GK_MATH1

#ifndef __CUDACC_RTC__
// On the CPU, f32 exp, tanh and erf are inline and branch-free, so the loop vectoriser
// turns the unary, activation and epilogue loops into vector code (on AVX2 only with
// -fno-trapping-math, CMakeLists.txt: GCC if-converts its selects only then; libm's expf and
// tanhf are a call per element: Sigmoid, SiLU, Tanh, Softmax and the recurrent
// cells, GELU). exp and tanh are within 2 ulp of the correctly rounded value over
// the whole range, erf within 8 (tests/ops/math_test.cpp checks them against the
// double functions); CUDA keeps NVRTC's functions.
// Forced inline: GCC kept gk_exp out of line in the big kernels (gk_conv_depthwise,
// gk_matmul), so their SiLU/Sigmoid epilogue loops were a call per element, 29% of
// a 32x112x112 depthwise + SiLU (3.5 ms against 0.33 with Relu).
#define GK_MATH_INLINE static inline __attribute__((always_inline))
GK_MATH_INLINE float gk_bits_float(int32_t i) {
  float f;
  std::memcpy(&f, &i, 4);
  return f;
}
// e^x: Cody-Waite reduction x = n ln2 + r, |r| <= ln2 / 2, Cephes' degree-6
// polynomial, and 2^n applied in two halves so that subnormal results keep their
// bits. Rounds n with the 1.5 * 2^23 trick: no rint call, vectorisable anywhere.
// gk_exp_reduced gives e^r and n for an x already inside [-104, 88.72].
GK_MATH_INLINE float gk_exp_reduced(float xc, float* n_out) {
  const float n = (xc * 1.44269504088896341f + 12582912.0f) - 12582912.0f;
  float r = xc - n * 0.693359375f;
  r = r - n * -2.12194440e-4f;
  const float r2 = r * r;
  float p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  *n_out = n;
  return p * r2 + r + 1.0f;
}
GK_MATH_INLINE float gk_exp(float x) {
  // NaN takes the -104 branch (its comparisons are false), so n stays finite and
  // its int conversion defined; the result for NaN is x, chosen at the end.
  const float xc = x > -104.0f ? (x < 88.72283935546875f ? x : 88.72283935546875f) : -104.0f;
  float n;
  const float e = gk_exp_reduced(xc, &n);
  const int32_t ni = (int32_t)n, n1 = ni / 2, n2 = ni - n1;
  const float y = e * gk_bits_float((n1 + 127) << 23) * gk_bits_float((n2 + 127) << 23);
  return x != x ? x : (x > 88.72283935546875f ? gk_bits_float(0x7f800000) : y);
}
// 1 / (1 + e^-x) with e^-x taken on -x clamped to [-87, 88], where 2^n is one
// normal float: no overflow or subnormal cases to select between, 20% fewer
// instructions in a SiLU loop (1.68 -> 1.34 ns per element on Zen 3). The bits are
// 1 / (1 + gk_exp(-x))'s for x > -88 (both scalings are exact there); below, the
// result stays at sigmoid(-88) = 6.05e-39 instead of falling to 0.
GK_MATH_INLINE float gk_sigmoid(float x) {
  const float t = -x;
  const float tc = t > -87.0f ? (t < 88.0f ? t : 88.0f) : -87.0f;
  float n;
  const float e = gk_exp_reduced(tc, &n) * gk_bits_float(((int32_t)n + 127) << 23);
  const float s = 1.0f / (1.0f + e);
  return x != x ? x : s;
}
static inline double gk_exp(double x) { return exp(x); }
// tanh: Cephes' odd polynomial for |x| < 0.625, 1 - 2 / (e^2|x| + 1) with the sign
// above (e^2|x| overflows to inf past 44, giving exactly 1).
GK_MATH_INLINE float gk_tanh(float x) {
  const float ax = x < 0.0f ? -x : x;
  const float z = x * x;
  float p = -5.70498872745e-3f;
  p = p * z + 2.06390887954e-2f;
  p = p * z - 5.37397155531e-2f;
  p = p * z + 1.33314422036e-1f;
  p = p * z - 3.33332819422e-1f;
  const float small = p * z * x + x;
  const float big = 1.0f - 2.0f / (gk_exp(ax + ax) + 1.0f);
  return ax == 0.0f ? x : (ax < 0.625f ? small : (x < 0.0f ? -big : big));  // keeps -0
}
static inline double gk_tanh(double x) { return tanh(x); }
// erf: x P(x^2) / Q(x^2) on [-4, 4] (the rational form Eigen and XLA use for f32;
// |erf| rounds to 1 beyond 4), for GELU and Erf: within 8 ulp, 5e-7 absolute where
// erf nears 1, otherwise within a few.
GK_MATH_INLINE float gk_erf(float x) {
  const float xc = x < -4.0f ? -4.0f : (x > 4.0f ? 4.0f : x);
  const float z = xc * xc;
  float p = -2.72614225801306e-10f;
  p = p * z + 2.77068142495902e-08f;
  p = p * z - 2.10102402082508e-06f;
  p = p * z - 5.69250639462346e-05f;
  p = p * z - 7.34990630326855e-04f;
  p = p * z - 2.95459980854025e-03f;
  p = p * z - 1.60960333262415e-02f;
  float q = -1.45660718464996e-05f;
  q = q * z - 2.13374055278905e-04f;
  q = q * z - 1.68282697438203e-03f;
  q = q * z - 7.37332916720468e-03f;
  q = q * z - 1.42647390514189e-02f;
  const float ax = x < 0.0f ? -x : x;
  // 2x/sqrt(pi) below 2^-13 (error x^3/3): x P / Q loses tiny and subnormal x.
  return x != x ? x : (ax < 1.220703125e-4f ? x * 1.12837916709551257f : xc * p / q);
}
static inline double gk_erf(double x) { return erf(x); }
#else
static GK_FN float gk_sigmoid(float x) { return 1.0f / (1.0f + gk_exp(-x)); }
#endif
static GK_FN double gk_sigmoid(double x) { return 1.0 / (1.0 + gk_exp(-x)); }

static GK_FN float gk_pow(float x, float y) { return powf(x, y); }
static GK_FN double gk_pow(double x, double y) { return pow(x, y); }
static GK_FN float gk_fmod(float x, float y) { return fmodf(x, y); }
static GK_FN double gk_fmod(double x, double y) { return fmod(x, y); }

template <typename A> static GK_FN bool gk_isnan(A x) { return x != x; }

// Signedness without comparing an unsigned value against 0 (NVRTC warns on that).
template <typename T> struct gk_is_signed_t { static const bool value = false; };
template <> struct gk_is_signed_t<int8_t> { static const bool value = true; };
template <> struct gk_is_signed_t<int16_t> { static const bool value = true; };
template <> struct gk_is_signed_t<int32_t> { static const bool value = true; };
template <> struct gk_is_signed_t<int64_t> { static const bool value = true; };
template <> struct gk_is_signed_t<float> { static const bool value = true; };
template <> struct gk_is_signed_t<double> { static const bool value = true; };
template <typename A> static GK_FN bool gk_is_negative(A x) {
  if constexpr (gk_is_signed_t<A>::value) return x < (A)0;
  else return false;
}
