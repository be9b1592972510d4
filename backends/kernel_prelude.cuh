// Prelude of every kernel source, for NVRTC and for the CPU build alike: fixed-width
// integers, half/bfloat16 storage types with exact round-to-nearest-even
// conversion, the float accumulator of each type, and GK_KERNEL_LOOP.
// Everything here compiles as CUDA-C under NVRTC and as C++20 on the host.
#pragma once

#ifdef __CUDACC_RTC__
typedef signed char int8_t;
typedef unsigned char uint8_t;
typedef short int16_t;
typedef unsigned short uint16_t;
typedef int int32_t;
typedef unsigned int uint32_t;
typedef long long int64_t;
typedef unsigned long long uint64_t;
#define GK_FN __device__ __forceinline__
// C++ linkage (NVRTC's default) so name expressions find template instances; an
// explicit extern "C++" is rejected after a template header.
#define GK_KERNEL __global__
#define GK_RESTRICT __restrict__
// Grid-stride loop: correct for any grid, coalesced on the GPU.
#define GK_KERNEL_LOOP(i, n)                                                   \
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x, i##_n = (n); \
       i < i##_n; i += (int64_t)blockDim.x * gridDim.x)
#else
#include "backends/cpu/cuda_compat.h"
#endif

static GK_FN float gk_bits_to_float(uint32_t u) {
#ifdef __CUDACC_RTC__
  return __uint_as_float(u);
#else
  float f;
  __builtin_memcpy(&f, &u, 4);
  return f;
#endif
}
static GK_FN uint32_t gk_float_to_bits(float f) {
#ifdef __CUDACC_RTC__
  return __float_as_uint(f);
#else
  uint32_t u;
  __builtin_memcpy(&u, &f, 4);
  return u;
#endif
}

static GK_FN float gk_half_bits_to_float(uint16_t h) {
#ifdef __CUDACC_RTC__
  float f;
  asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h));
  return f;
#else
  uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1fu;
  uint32_t man = h & 0x3ffu;
  if (exp == 0x1f) return gk_bits_to_float(sign | 0x7f800000u | (man << 13));  // inf/nan
  if (exp == 0) {
    if (man == 0) return gk_bits_to_float(sign);
    // Subnormal: value = man * 2^-24, exact in float.
    float v = (float)man * 5.9604644775390625e-08f;
    return sign ? -v : v;
  }
  return gk_bits_to_float(sign | ((exp + 112u) << 23) | (man << 13));
#endif
}

static GK_FN uint16_t gk_float_to_half_bits(float f) {
#ifdef __CUDACC_RTC__
  uint16_t h;
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f));
  return h;
#else
  uint32_t x = gk_float_to_bits(f);
  uint32_t sign = (x >> 16) & 0x8000u;
  uint32_t ax = x & 0x7fffffffu;
  if (ax >= 0x7f800000u) return (uint16_t)(sign | 0x7c00u | (ax > 0x7f800000u ? 0x200u : 0u));
  if (ax >= 0x477ff000u) return (uint16_t)(sign | 0x7c00u);  // rounds to >= 65520: inf
  if (ax < 0x38800000u) {                                     // below 2^-14: subnormal
    // Adding 0.5 (2^-1) lets the FPU do the round-to-nearest-even at 2^-24.
    float v = gk_bits_to_float(ax) + 0.5f;
    return (uint16_t)(sign | (gk_float_to_bits(v) - 0x3f000000u));
  }
  uint32_t mant_odd = (ax >> 13) & 1u;
  ax += 0xc8000fffu + mant_odd;  // rebias exponent (-112 << 23) and round
  return (uint16_t)(sign | (ax >> 13));
#endif
}

static GK_FN float gk_bf16_bits_to_float(uint16_t b) { return gk_bits_to_float((uint32_t)b << 16); }
static GK_FN uint16_t gk_float_to_bf16_bits(float f) {
  uint32_t u = gk_float_to_bits(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((u >> 16) | 0x40u);  // quiet NaN
  u += 0x7fffu + ((u >> 16) & 1u);
  return (uint16_t)(u >> 16);
}

// Storage types: arithmetic goes through float (the implicit conversion), which is
// how f16/bf16 accumulate in f32.
struct gk_half {
  uint16_t bits;
  gk_half() = default;
  GK_FN gk_half(float f) : bits(gk_float_to_half_bits(f)) {}
  GK_FN operator float() const { return gk_half_bits_to_float(bits); }
};
struct gk_bf16 {
  uint16_t bits;
  gk_bf16() = default;
  GK_FN gk_bf16(float f) : bits(gk_float_to_bf16_bits(f)) {}
  GK_FN operator float() const { return gk_bf16_bits_to_float(bits); }
};

// Accumulator type: f16/bf16 compute in f32, everything else in itself.
template <typename T> struct gk_acc { typedef T type; };
template <> struct gk_acc<gk_half> { typedef float type; };
template <> struct gk_acc<gk_bf16> { typedef float type; };
template <> struct gk_acc<bool> { typedef bool type; };

template <typename T> struct gk_is_float_t { static const bool value = false; };
template <> struct gk_is_float_t<float> { static const bool value = true; };
template <> struct gk_is_float_t<double> { static const bool value = true; };
template <> struct gk_is_float_t<gk_half> { static const bool value = true; };
template <> struct gk_is_float_t<gk_bf16> { static const bool value = true; };

template <typename T> struct gk_limits {
  static GK_FN T lowest() { return T(0); }
  static GK_FN T highest() { return T(0); }
};
#define GK_INT_LIMITS(T, lo, hi)                       \
  template <> struct gk_limits<T> {                    \
    static GK_FN T lowest() { return (T)(lo); }        \
    static GK_FN T highest() { return (T)(hi); }       \
  };
GK_INT_LIMITS(int8_t, -128, 127)
GK_INT_LIMITS(uint8_t, 0, 255)
GK_INT_LIMITS(int16_t, -32768, 32767)
GK_INT_LIMITS(uint16_t, 0, 65535)
GK_INT_LIMITS(int32_t, -2147483647 - 1, 2147483647)
GK_INT_LIMITS(uint32_t, 0, 4294967295u)
GK_INT_LIMITS(int64_t, (-9223372036854775807LL - 1), 9223372036854775807LL)
GK_INT_LIMITS(uint64_t, 0, 18446744073709551615ULL)
GK_INT_LIMITS(bool, false, true)
#undef GK_INT_LIMITS
template <> struct gk_limits<float> {
  static GK_FN float lowest() { return -gk_bits_to_float(0x7f800000u); }
  static GK_FN float highest() { return gk_bits_to_float(0x7f800000u); }
};
template <> struct gk_limits<double> {
  static GK_FN double lowest() { return -(double)gk_bits_to_float(0x7f800000u); }
  static GK_FN double highest() { return (double)gk_bits_to_float(0x7f800000u); }
};
template <> struct gk_limits<gk_half> {
  static GK_FN gk_half lowest() { return gk_limits<float>::lowest(); }
  static GK_FN gk_half highest() { return gk_limits<float>::highest(); }
};
template <> struct gk_limits<gk_bf16> {
  static GK_FN gk_bf16 lowest() { return gk_limits<float>::lowest(); }
  static GK_FN gk_bf16 highest() { return gk_limits<float>::highest(); }
};

// Out-of-range indices: kernels clamp and raise a flag the host turns into an
// OutOfRange error (DESIGN.md, "Bad input").
static GK_FN void gk_raise(int32_t* flag, int32_t code) {
  atomicMax(flag, code);
}
