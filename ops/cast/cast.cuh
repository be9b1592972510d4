// Cast between element types. Rules (ONNX Cast):
// - float to integer: truncate toward zero; out of range saturates to the type's
//   limits and NaN gives 0 (the spec leaves both undefined; this is defined).
// - integer to integer: keep the low bits (two's complement wrap); so do the
//   packed 4-/2-bit integer targets, from any source (what ONNX's test data holds:
//   -9 -> int4 7, 3 -> int2 -1).
// - to bool: nonzero (NaN included) is true; from bool: 1 / 0.
// - to f16/bf16 and the storage-only floats (float8, float4, e8m0): rounded once,
//   to nearest even (e8m0: by round_mode), from a round-to-odd float when the
//   source is wider than float, so there is no double rounding.
// - float8 targets honour `saturate` (backends/minifloat.cuh has the tables).
#include "backends/kernel_prelude.cuh"
#include "backends/minifloat.cuh"

// Storage-only element types: one byte each (a float8, or one unpacked float4 in
// the low nibble), and the packed containers: one byte of two 4-bit or four
// 2-bit elements, first element in the low bits.
struct gk_f8e4m3fn { uint8_t bits; };
struct gk_f8e4m3fnuz { uint8_t bits; };
struct gk_f8e5m2 { uint8_t bits; };
struct gk_f8e5m2fnuz { uint8_t bits; };
struct gk_f8e8m0 { uint8_t bits; };
struct gk_f4e2m1 { uint8_t bits; };
struct gk_f4e2m1x2 { uint8_t bits; };
struct gk_int4x2 { uint8_t bits; };
struct gk_uint4x2 { uint8_t bits; };
struct gk_int2x4 { uint8_t bits; };
struct gk_uint2x4 { uint8_t bits; };

template <typename T> struct gk_mf_traits { static const bool value = false; };
#define GK_MF_TRAITS(T, F)                  \
  template <> struct gk_mf_traits<T> {      \
    static const bool value = true;         \
    typedef F fmt;                          \
  };
GK_MF_TRAITS(gk_f8e4m3fn, gk_fmt_e4m3fn)
GK_MF_TRAITS(gk_f8e4m3fnuz, gk_fmt_e4m3fnuz)
GK_MF_TRAITS(gk_f8e5m2, gk_fmt_e5m2)
GK_MF_TRAITS(gk_f8e5m2fnuz, gk_fmt_e5m2fnuz)
GK_MF_TRAITS(gk_f4e2m1, gk_fmt_e2m1)
#undef GK_MF_TRAITS
template <typename T> struct gk_is_e8m0 { static const bool value = false; };
template <> struct gk_is_e8m0<gk_f8e8m0> { static const bool value = true; };
template <typename T> struct gk_is_minifloat {
  static const bool value = gk_mf_traits<T>::value || gk_is_e8m0<T>::value;
};

// Packed containers: elements per byte, bits each, signedness, float4 or integer.
template <typename T> struct gk_packed { static const int kPer = 1; };
#define GK_PACKED(T, per, bits, is_signed, is_float) \
  template <> struct gk_packed<T> {                  \
    static const int kPer = per;                     \
    static const int kBits = bits;                   \
    static const bool kSigned = is_signed;           \
    static const bool kFloat = is_float;             \
  };
GK_PACKED(gk_f4e2m1x2, 2, 4, true, true)
GK_PACKED(gk_int4x2, 2, 4, true, false)
GK_PACKED(gk_uint4x2, 2, 4, false, false)
GK_PACKED(gk_int2x4, 4, 2, true, false)
GK_PACKED(gk_uint2x4, 4, 2, false, false)
#undef GK_PACKED

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

static GK_FN int gk_clz64(uint64_t v) {
#ifdef __CUDACC_RTC__
  return __clzll((long long)v);
#else
  return __builtin_clzll(v);
#endif
}

// Round-to-odd integer → float: the top 24 significant bits, the last one set when
// any lower bit is (64-bit values need it; through double 2^62 + 1 would lose its
// 1 and round-up modes would miss it).
template <typename I>
static GK_FN float gk_int_to_float_odd(I v) {
  bool neg = false;
  uint64_t m = (uint64_t)v;
  if constexpr ((I)-1 < (I)0) {
    neg = v < 0;
    if (neg) m = (uint64_t)0 - (uint64_t)(int64_t)v;
  }
  float f;
  if (m < (1ull << 24)) {
    f = (float)m;
  } else {
    const int s = 40 - gk_clz64(m);  // significant bits - 24
    uint64_t keep = m >> s;
    if (m & ((1ull << s) - 1ull)) keep |= 1ull;
    f = (float)keep * (float)(1ull << s);
  }
  return neg ? -f : f;
}

template <typename T> struct gk_is_bool_t { static const bool value = false; };
template <> struct gk_is_bool_t<bool> { static const bool value = true; };
template <typename T> struct gk_is_narrow_float { static const bool value = false; };
template <> struct gk_is_narrow_float<gk_half> { static const bool value = true; };
template <> struct gk_is_narrow_float<gk_bf16> { static const bool value = true; };

// A float that rounds to any narrower format as x itself would.
template <typename From>
static GK_FN float gk_to_float_odd(From x) {
  if constexpr (gk_is_bool_t<From>::value) return x ? 1.0f : 0.0f;
  else if constexpr (sizeof(From) == 8 && gk_is_float_t<From>::value) return gk_double_to_float_odd(x);
  else if constexpr (gk_is_float_t<From>::value) return (float)x;
  else return gk_int_to_float_odd(x);
}

template <typename T>
static GK_FN float gk_mf_decode(T x) {
  if constexpr (gk_is_e8m0<T>::value) return gk_e8m0_to_float(x.bits);
  else return gk_mf_to_float<typename gk_mf_traits<T>::fmt>(x.bits);
}

template <typename T>
static GK_FN T gk_mf_encode(float f, int32_t mode) {
  T t;
  if constexpr (gk_is_e8m0<T>::value) t.bits = (uint8_t)gk_float_to_e8m0(f, mode);
  else t.bits = (uint8_t)gk_float_to_mf<typename gk_mf_traits<T>::fmt>(f, (mode & GK_CAST_SATURATE) != 0);
  return t;
}

template <typename To, typename From>
static GK_FN To gk_convert(From x, int32_t mode = GK_CAST_SATURATE) {
  if constexpr (gk_is_minifloat<From>::value) {
    // Every storage-only float value is exact in float.
    return gk_convert<To, float>(gk_mf_decode(x), mode);
  } else if constexpr (gk_is_minifloat<To>::value) {
    return gk_mf_encode<To>(gk_to_float_odd(x), mode);
  } else {
    typedef typename gk_acc<From>::type A;
    const A v = (A)x;
    if constexpr (gk_is_bool_t<To>::value) {
      return v != (A)0;
    } else if constexpr (gk_is_float_t<A>::value && !gk_is_float_t<To>::value) {
      if (v != v) return (To)0;
      if (v <= (A)gk_limits<To>::lowest()) return gk_limits<To>::lowest();
      if (v >= (A)gk_limits<To>::highest()) return gk_limits<To>::highest();
      return (To)v;
    } else if constexpr (gk_is_narrow_float<To>::value) {
      return To(gk_to_float_odd(x));
    } else {
      return (To)v;
    }
  }
}

// Element i of a packed buffer, converted to To.
template <typename To, typename P>
static GK_FN To gk_load_packed(const P* x, int64_t i, int32_t mode) {
  const int per = gk_packed<P>::kPer;
  const uint8_t byte = x[i / per].bits;
  if constexpr (gk_packed<P>::kFloat) {
    gk_f4e2m1 e;
    e.bits = (uint8_t)((byte >> ((int)(i % per) * 4)) & 15u);
    return gk_convert<To, gk_f4e2m1>(e, mode);
  } else {
    return gk_convert<To, int32_t>(gk_unpack_int<gk_packed<P>::kBits, gk_packed<P>::kSigned>(byte, i), mode);
  }
}

// The bits of one element of packed type P converted from v.
template <typename P, typename From>
static GK_FN uint32_t gk_pack_code(From v, int32_t mode) {
  if constexpr (gk_packed<P>::kFloat) return gk_convert<gk_f4e2m1, From>(v, mode).bits;
  else return (uint32_t)gk_convert<int64_t, From>(v, mode) & ((1u << gk_packed<P>::kBits) - 1u);
}

// Byte-addressable types on both sides (float8 and e8m0 included).
template <typename From, typename To>
GK_KERNEL void gk_cast(const From* x, To* y, int64_t n, int32_t mode) {
  GK_KERNEL_LOOP(i, n) { y[i] = gk_convert<To, From>(x[i], mode); }
}

// A packed type on one side (the launcher routes packed-to-packed through float,
// which holds every packed value exactly). A packed output is written a whole
// byte per thread, all its elements at once, so no two threads share a byte.
template <typename From, typename To>
GK_KERNEL void gk_cast_packed(const From* x, To* y, int64_t n, int32_t mode) {
  if constexpr (gk_packed<To>::kPer == 1) {
    GK_KERNEL_LOOP(i, n) { y[i] = gk_load_packed<To, From>(x, i, mode); }
  } else {
    const int per = gk_packed<To>::kPer;
    const int64_t bytes = (n + per - 1) / per;
    GK_KERNEL_LOOP(b, bytes) {
      uint32_t out = 0;
      for (int k = 0; k < per; ++k) {
        const int64_t i = b * per + k;
        if (i < n) out |= gk_pack_code<To, From>(x[i], mode) << (k * gk_packed<To>::kBits);
      }
      y[b].bits = (uint8_t)out;
    }
  }
}
