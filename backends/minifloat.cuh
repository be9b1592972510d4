// The storage-only float formats (float8 E4M3FN/E4M3FNUZ/E5M2/E5M2FNUZ, float4
// E2M1, float8 E8M0): exact decoding to float and the ONNX Cast encodings, bit for
// bit with ONNX's test data. CUDA-C for NVRTC and C++ on the host: the Cast
// kernels (ops/cast/cast.cuh) and the host's element decoding
// (runtime/kit/element_convert.cpp) share it, so both read the same values.
#pragma once

#include "backends/kernel_prelude.cuh"

// How a format spends the top of its range (ONNX Cast's tables):
//  IEEE   — E5M2: exponent all ones is inf (mantissa 0) or NaN.
//  FN     — E4M3FN: no inf; S.1111.111 is NaN, S.1111.110 the largest finite.
//  FNUZ   — no inf, no -0: the -0 pattern (sign bit alone) is the only NaN.
//  FINITE — E2M1: neither inf nor NaN; a NaN input becomes the sign-bit-only
//           pattern (-0), as ONNX's reference (ml_dtypes) writes it.
#define GK_MF_IEEE 0
#define GK_MF_FN 1
#define GK_MF_FNUZ 2
#define GK_MF_FINITE 3

// Cast's mode word: bit 0 saturate (float8 targets), bits 1-2 the float8e8m0
// round_mode.
#define GK_CAST_SATURATE 1
#define GK_ROUND_UP 0
#define GK_ROUND_DOWN 1
#define GK_ROUND_NEAREST 2
#define GK_CAST_MODE(saturate, round) (((saturate) ? GK_CAST_SATURATE : 0) | ((round) << 1))

template <int E, int M, int Bias, int Kind>
struct gk_mf_format {
  static const int kExpBits = E;
  static const int kManBits = M;
  static const int kBias = Bias;
  static const int kKind = Kind;
  static const int kEmin = 1 - Bias;  // unbiased exponent of the smallest normal
  static const uint32_t kSign = 1u << (E + M);
  static const uint32_t kMagMask = (1u << (E + M)) - 1u;
  static const uint32_t kInf = ((1u << E) - 1u) << M;  // IEEE only
  static const uint32_t kMaxFinite =
      Kind == GK_MF_IEEE ? (((1u << E) - 1u) << M) - 1u : Kind == GK_MF_FN ? (1u << (E + M)) - 2u : (1u << (E + M)) - 1u;
  // IEEE: quiet NaN (top mantissa bit); FN: all ones; FNUZ/FINITE: the sign bit alone.
  static const uint32_t kNaN = Kind == GK_MF_IEEE ? ((((1u << E) - 1u) << M) | (1u << (M - 1)))
                               : Kind == GK_MF_FN ? (1u << (E + M)) - 1u
                                                  : 0u;
};

typedef gk_mf_format<4, 3, 7, GK_MF_FN> gk_fmt_e4m3fn;
typedef gk_mf_format<4, 3, 8, GK_MF_FNUZ> gk_fmt_e4m3fnuz;
typedef gk_mf_format<5, 2, 15, GK_MF_IEEE> gk_fmt_e5m2;
typedef gk_mf_format<5, 2, 16, GK_MF_FNUZ> gk_fmt_e5m2fnuz;
typedef gk_mf_format<2, 1, 1, GK_MF_FINITE> gk_fmt_e2m1;

// Bits → float, exact: every value of these formats is a float.
template <typename F>
static GK_FN float gk_mf_to_float(uint32_t code) {
  const int M = F::kManBits;
  const uint32_t sign = (code & F::kSign) ? 0x80000000u : 0u;
  const uint32_t mag = code & F::kMagMask;
  if (F::kKind == GK_MF_FNUZ && code == F::kSign) return gk_bits_to_float(0x7fc00000u);
  if (F::kKind == GK_MF_FN && mag == F::kMagMask) return gk_bits_to_float(sign | 0x7fc00000u);
  if (F::kKind == GK_MF_IEEE && mag >= F::kInf)
    return gk_bits_to_float(sign | (mag == F::kInf ? 0x7f800000u : 0x7fc00000u));
  const uint32_t exp = mag >> M, man = mag & ((1u << M) - 1u);
  if (exp == 0) {
    // man * 2^(1 - bias - M); that power of two is a normal float for every format.
    const float v = (float)man * gk_bits_to_float((uint32_t)(127 + 1 - F::kBias - M) << 23);
    return sign ? -v : v;
  }
  return gk_bits_to_float(sign | ((exp + 127u - (uint32_t)F::kBias) << 23) | (man << (23 - M)));
}

// The finite magnitude |x| rounded to nearest even at the format's precision, as
// a code (exponent and mantissa fields; the carry of a round-up moves into the
// exponent). May exceed kMaxFinite: the caller decides what overflow means.
template <typename F>
static GK_FN uint32_t gk_mf_round_magnitude(uint32_t a) {
  const int M = F::kManBits;
  const int e = (int)(a >> 23) - 127;  // float subnormals: -127, far below every target
  uint32_t man = a & 0x7fffffu;
  if (e >= F::kEmin) {
    // Normal: drop 23 - M mantissa bits, round half to even, rebias.
    const int s = 23 - M;
    const uint32_t keep = (((uint32_t)(e + F::kBias)) << M) | (man >> s);
    const uint32_t rem = man & ((1u << s) - 1u), half = 1u << (s - 1);
    return keep + ((rem > half || (rem == half && (keep & 1u))) ? 1u : 0u);
  }
  // Subnormal in the target: the significand (implicit bit included for normal
  // floats) shifted right by the extra exponent distance; a quotient of 2^M is
  // the smallest normal, whose code is exactly 2^M.
  if (a >= 0x00800000u) man |= 0x800000u;
  const int s = 23 - M + (F::kEmin - (e < -126 ? -126 : e));
  if (s > 25) return 0;  // below half the smallest subnormal
  const uint32_t q = man >> s, rem = man & ((1u << s) - 1u), half = 1u << (s - 1);
  return q + ((rem > half || (rem == half && (q & 1u))) ? 1u : 0u);
}

// float → code with ONNX Cast's rules: round to nearest even; out of range (and
// ±inf) saturates to ±max finite when `saturate`, else becomes inf (IEEE) or NaN.
// FINITE formats (float4) always saturate: the attribute is for float8 only.
template <typename F>
static GK_FN uint32_t gk_float_to_mf(float x, bool saturate) {
  const uint32_t u = gk_float_to_bits(x);
  const uint32_t sign = (u & 0x80000000u) ? F::kSign : 0u;
  const uint32_t a = u & 0x7fffffffu;
  const bool clamp = saturate || F::kKind == GK_MF_FINITE;
  uint32_t overflow;
  if (clamp) overflow = sign | F::kMaxFinite;
  else if (F::kKind == GK_MF_IEEE) overflow = sign | F::kInf;
  else if (F::kKind == GK_MF_FN) overflow = sign | F::kNaN;
  else overflow = F::kSign;  // FNUZ: the one NaN
  if (a > 0x7f800000u) {     // NaN
    if (F::kKind == GK_MF_FNUZ || F::kKind == GK_MF_FINITE) return F::kSign;
    return sign | F::kNaN;
  }
  if (a == 0x7f800000u) return overflow;
  const uint32_t mag = gk_mf_round_magnitude<F>(a);
  if (mag > F::kMaxFinite) return overflow;
  if (mag == 0 && F::kKind == GK_MF_FNUZ) return 0;  // no -0: its pattern is NaN
  return sign | mag;
}

// float8e8m0: an unsigned power of two 2^(code - 127), code 0..254; 255 is NaN.
static GK_FN float gk_e8m0_to_float(uint32_t code) {
  if (code == 0xffu) return gk_bits_to_float(0x7fc00000u);
  if (code == 0) return gk_bits_to_float(0x00400000u);  // 2^-127, a float subnormal
  return gk_bits_to_float(code << 23);
}

// float → e8m0 by Cast-24's round_mode (up: any fraction rounds away from zero;
// down: truncate; nearest: from 1.5 * 2^e up, the midpoint included) and its table:
// NaN is NaN; inf, x > 2^127 and x < 2^-127 (0 included) saturate to the largest
// or smallest code, or are NaN without saturate. The sign is ignored (negative
// inputs are unspecified); |x| is what ONNX's reference rounds as well.
static GK_FN uint32_t gk_float_to_e8m0(float x, int mode) {
  const bool saturate = (mode & GK_CAST_SATURATE) != 0;
  const int round = (mode >> 1) & 3;
  const uint32_t a = gk_float_to_bits(x) & 0x7fffffffu;
  if (a > 0x7f800000u) return 0xffu;
  if (a > 0x7f000000u) return saturate ? 0xfeu : 0xffu;  // above 2^127, inf included
  if (a < 0x00400000u) return saturate ? 0u : 0xffu;     // below 2^-127, 0 included
  // Float subnormals (2^-127 <= x < 2^-126) have the exponent field 0 but the
  // value 2^-127 * (1 + f) with f the mantissa below its top bit.
  uint32_t code, frac;
  if (a >= 0x00800000u) {
    code = a >> 23;
    frac = a & 0x7fffffu;
  } else {
    code = 0;
    frac = (a << 1) & 0x7fffffu;
  }
  if (round == GK_ROUND_UP && frac != 0) ++code;
  if (round == GK_ROUND_NEAREST && frac >= 0x400000u) ++code;
  // Only 2^127 itself has code 254 and no fraction, so rounding stays <= 254.
  return code;
}

// 4-/2-bit integers: element i of a packed buffer (first element in the low bits),
// sign-extended when Signed.
template <int Bits, bool Signed>
static GK_FN int32_t gk_unpack_int(uint8_t byte, int64_t i) {
  const int per = 8 / Bits;
  const uint32_t v = ((uint32_t)byte >> ((int)(i % per) * Bits)) & ((1u << Bits) - 1u);
  if (Signed && (v & (1u << (Bits - 1)))) return (int32_t)v - (int32_t)(1u << Bits);
  return (int32_t)v;
}
