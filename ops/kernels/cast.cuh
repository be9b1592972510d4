// Cast between the computable element types. Rules (ONNX Cast):
// - float to integer: truncate toward zero; out of range saturates to the type's
//   limits and NaN gives 0 (the spec leaves both undefined; this is defined).
// - integer to integer: keep the low bits (two's complement wrap).
// - to bool: nonzero (NaN included) is true; from bool: 1 / 0.
// - double and integers to f16/bf16: rounded once, to nearest even (through a
//   round-to-odd float, so no double rounding).
#include "backends/kernel_prelude.cuh"

// Round-to-odd double → float: the float nearest |d| from below or above whose last
// mantissa bit is set when inexact. Rounding that float to a narrower format then
// equals rounding d directly (the float keeps 13+ more bits than f16/bf16).
static GK_FN float gk_double_to_float_odd(double d) {
  float f = (float)d;
  if ((double)f != d && d == d) {
    uint32_t u = gk_float_to_bits(f);
    if (!(u & 1u)) {
      const bool f_small = (f < 0 ? -(double)f : (double)f) < (d < 0 ? -d : d);
      u = f_small ? u + 1u : u - 1u;
      f = gk_bits_to_float(u);
    }
  }
  return f;
}

template <typename T> struct gk_is_bool_t { static const bool value = false; };
template <> struct gk_is_bool_t<bool> { static const bool value = true; };
template <typename T> struct gk_is_narrow_float { static const bool value = false; };
template <> struct gk_is_narrow_float<gk_half> { static const bool value = true; };
template <> struct gk_is_narrow_float<gk_bf16> { static const bool value = true; };

template <typename To, typename From>
static GK_FN To gk_convert(From x) {
  typedef typename gk_acc<From>::type A;
  const A v = (A)x;
  if constexpr (gk_is_bool_t<To>::value) {
    return v != (A)0;
  } else if constexpr (gk_is_float_t<A>::value && !gk_is_float_t<To>::value) {
    if (v != v) return (To)0;
    if (v <= (A)gk_limits<To>::lowest()) return gk_limits<To>::lowest();
    if (v >= (A)gk_limits<To>::highest()) return gk_limits<To>::highest();
    return (To)v;
  } else if constexpr (gk_is_narrow_float<To>::value && !gk_is_float_t<From>::value) {
    return To(gk_double_to_float_odd((double)v));
  } else if constexpr (gk_is_narrow_float<To>::value && sizeof(From) == 8) {
    return To(gk_double_to_float_odd(v));
  } else if constexpr (gk_is_narrow_float<To>::value) {
    return To((float)v);
  } else {
    return (To)v;
  }
}

template <typename From, typename To>
GK_KERNEL void gk_cast(const From* x, To* y, int64_t n) {
  GK_KERNEL_LOOP(i, n) { y[i] = gk_convert<To, From>(x[i]); }
}
