// Makes CUDA-C kernel sources compile as host C++: the thread coordinates are
// thread-locals set by the CPU backend, `__global__`/`__device__` vanish, and the
// CUDA math functions are <cmath>'s. Kernels written with GK_KERNEL_LOOP run as one
// tight loop per worker over a contiguous range, which the compiler vectorises.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline __attribute__((always_inline))
#define __restrict__ __restrict
#define GK_FN inline
// inline: a family header may be included by several host files (shared structs).
#define GK_KERNEL inline
#define GK_RESTRICT __restrict

struct gk_dim3 {
  unsigned x = 1, y = 1, z = 1;
};

// The worker's share of a launch: part `index` of `count` equal parts.
struct gk_cpu_part {
  int64_t index = 0;
  int64_t count = 1;
};

extern thread_local gk_dim3 threadIdx;
extern thread_local gk_dim3 blockIdx;
extern thread_local gk_dim3 blockDim;
extern thread_local gk_dim3 gridDim;
extern thread_local gk_cpu_part gk_part;

inline int64_t gk_part_begin(int64_t n) {
  return static_cast<int64_t>((static_cast<__int128>(n) * gk_part.index) / gk_part.count);
}
inline int64_t gk_part_end(int64_t n) {
  return static_cast<int64_t>((static_cast<__int128>(n) * (gk_part.index + 1)) / gk_part.count);
}

#define GK_KERNEL_LOOP(i, n)                                                    \
  for (int64_t i##_n = (n), i = gk_part_begin(i##_n), i##_end = gk_part_end(i##_n); \
       i < i##_end; ++i)

inline void __syncthreads() {}  // kernels that need it have CPU twins

inline float __uint_as_float(uint32_t u) { float f; std::memcpy(&f, &u, 4); return f; }
inline uint32_t __float_as_uint(float f) { uint32_t u; std::memcpy(&u, &f, 4); return u; }
inline float __fdividef(float a, float b) { return a / b; }
inline float __expf(float x) { return std::exp(x); }
inline int atomicAdd(int* p, int v) { return __atomic_fetch_add(p, v, __ATOMIC_RELAXED); }
inline int atomicMax(int* p, int v) {
  int cur = __atomic_load_n(p, __ATOMIC_RELAXED);
  while (cur < v && !__atomic_compare_exchange_n(p, &cur, v, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {}
  return cur;
}
using std::fmaf;
using std::fma;
