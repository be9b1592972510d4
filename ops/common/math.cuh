// Float/double overloads of the math library, so one template computes f32 in the
// float functions (expf, erff, ...) and f64 in the double ones; f16/bf16 arrive
// here already widened to float (gk_acc). NVRTC has these as builtins; on the host
// they are <cmath>'s global C functions.
#pragma once
#include "backends/kernel_prelude.cuh"

#define GK_MATH1(name, ffn, dfn)                              \
  static GK_FN float name(float x) { return ffn(x); }        \
  static GK_FN double name(double x) { return dfn(x); }
GK_MATH1(gk_exp, expf, exp)
GK_MATH1(gk_expm1, expm1f, expm1)
GK_MATH1(gk_log, logf, log)
GK_MATH1(gk_log1p, log1pf, log1p)
GK_MATH1(gk_sqrt, sqrtf, sqrt)
GK_MATH1(gk_erf, erff, erf)
GK_MATH1(gk_sin, sinf, sin)
GK_MATH1(gk_cos, cosf, cos)
GK_MATH1(gk_tan, tanf, tan)
GK_MATH1(gk_asin, asinf, asin)
GK_MATH1(gk_acos, acosf, acos)
GK_MATH1(gk_atan, atanf, atan)
GK_MATH1(gk_sinh, sinhf, sinh)
GK_MATH1(gk_cosh, coshf, cosh)
GK_MATH1(gk_tanh, tanhf, tanh)
GK_MATH1(gk_asinh, asinhf, asinh)
GK_MATH1(gk_acosh, acoshf, acosh)
GK_MATH1(gk_atanh, atanhf, atanh)
GK_MATH1(gk_floor, floorf, floor)
GK_MATH1(gk_ceil, ceilf, ceil)
GK_MATH1(gk_rint, rintf, rint)  // round half to even (the default rounding mode)
GK_MATH1(gk_fabs, fabsf, fabs)
#undef GK_MATH1

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
