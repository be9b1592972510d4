// CPU instantiations of ops/gather_scatter/gather_scatter.cuh.
#include "backends/cpu/cpu_kernel_table.h"
#include "ops/core/op.h"
#include "ops/kernel_sources.h"
#include "ops/gather_scatter/gather_scatter.cuh"

#include <algorithm>

// CPU twin of gk_gs_gather: the worker's first element is decoded once, then
// (outer, index) step like an odometer and each inner run is one copy loop (the
// CUDA form's two divisions per element made the per-class score Gathers of
// torchvision's SSD post-processing, [3234, 91] -> [3234], 23 us each).
template <typename W, typename I>
void gk_gs_gather(const W* GK_RESTRICT data, const I* GK_RESTRICT idx, W* GK_RESTRICT out, int64_t axis_dim,
                  int64_t inner, int64_t n_idx, int32_t* flag, int64_t n) {
  int64_t i = gk_part_begin(n);
  const int64_t end = gk_part_end(n);
  if (i >= end || inner <= 0 || n_idx <= 0) return;
  const int64_t t = i / inner;
  int64_t k = i - t * inner, o = t / n_idx, j = t - o * n_idx;
  while (i < end) {
    const int64_t v = gk_gs_norm(idx[j], axis_dim, flag);
    const W* src = data + (o * axis_dim + v) * inner + k;
    const int64_t run = std::min(inner - k, end - i);
    for (int64_t q = 0; q < run; ++q) out[i + q] = src[q];
    i += run;
    k = 0;
    if (++j == n_idx) j = 0, ++o;
  }
}

namespace gk::families {
namespace {

// Width kernels: element widths 1..8 bytes x index types int32/int64.
#define GK_GS_WI(name)                                                                  \
  GK_CPU_KERNEL(kRange, name<uint8_t, int32_t>), GK_CPU_KERNEL(kRange, name<uint8_t, int64_t>), \
      GK_CPU_KERNEL(kRange, name<uint16_t, int32_t>), GK_CPU_KERNEL(kRange, name<uint16_t, int64_t>), \
      GK_CPU_KERNEL(kRange, name<uint32_t, int32_t>), GK_CPU_KERNEL(kRange, name<uint32_t, int64_t>), \
      GK_CPU_KERNEL(kRange, name<uint64_t, int32_t>), GK_CPU_KERNEL(kRange, name<uint64_t, int64_t>)

// Reductions 1..4 (add, mul, max, min) for one element type and both index types.
#define GK_GS_REDUCE(T)                                                                   \
  GK_CPU_KERNEL(kRange, gk_gs_scatter_elements<T, int32_t, 1>),                          \
      GK_CPU_KERNEL(kRange, gk_gs_scatter_elements<T, int32_t, 2>),                      \
      GK_CPU_KERNEL(kRange, gk_gs_scatter_elements<T, int32_t, 3>),                      \
      GK_CPU_KERNEL(kRange, gk_gs_scatter_elements<T, int32_t, 4>),                      \
      GK_CPU_KERNEL(kRange, gk_gs_scatter_elements<T, int64_t, 1>),                      \
      GK_CPU_KERNEL(kRange, gk_gs_scatter_elements<T, int64_t, 2>),                      \
      GK_CPU_KERNEL(kRange, gk_gs_scatter_elements<T, int64_t, 3>),                      \
      GK_CPU_KERNEL(kRange, gk_gs_scatter_elements<T, int64_t, 4>),                      \
      GK_CPU_KERNEL(kRange, gk_gs_scatter_nd_reduce<T, int32_t, 1>),                     \
      GK_CPU_KERNEL(kRange, gk_gs_scatter_nd_reduce<T, int32_t, 2>),                     \
      GK_CPU_KERNEL(kRange, gk_gs_scatter_nd_reduce<T, int32_t, 3>),                     \
      GK_CPU_KERNEL(kRange, gk_gs_scatter_nd_reduce<T, int32_t, 4>),                     \
      GK_CPU_KERNEL(kRange, gk_gs_scatter_nd_reduce<T, int64_t, 1>),                     \
      GK_CPU_KERNEL(kRange, gk_gs_scatter_nd_reduce<T, int64_t, 2>),                     \
      GK_CPU_KERNEL(kRange, gk_gs_scatter_nd_reduce<T, int64_t, 3>),                     \
      GK_CPU_KERNEL(kRange, gk_gs_scatter_nd_reduce<T, int64_t, 4>)

// OneHot: every value width for one index type.
#define GK_GS_ONE_HOT(I)                                                                 \
  GK_CPU_KERNEL(kRange, gk_gs_one_hot<uint8_t, I>), GK_CPU_KERNEL(kRange, gk_gs_one_hot<uint16_t, I>), \
      GK_CPU_KERNEL(kRange, gk_gs_one_hot<uint32_t, I>), GK_CPU_KERNEL(kRange, gk_gs_one_hot<uint64_t, I>)

const CpuKernelEntry kGatherScatterKernels[] = {
    GK_GS_WI(gk_gs_gather),
    GK_GS_WI(gk_gs_gather_elements),
    GK_GS_WI(gk_gs_gather_nd),
    GK_GS_WI(gk_gs_scatter_nd),
    // ScatterElements without a reduction moves bytes: R = 0 over widths.
    GK_CPU_KERNEL(kRange, gk_gs_scatter_elements<uint8_t, int32_t, 0>),
    GK_CPU_KERNEL(kRange, gk_gs_scatter_elements<uint8_t, int64_t, 0>),
    GK_CPU_KERNEL(kRange, gk_gs_scatter_elements<uint16_t, int32_t, 0>),
    GK_CPU_KERNEL(kRange, gk_gs_scatter_elements<uint16_t, int64_t, 0>),
    GK_CPU_KERNEL(kRange, gk_gs_scatter_elements<uint32_t, int32_t, 0>),
    GK_CPU_KERNEL(kRange, gk_gs_scatter_elements<uint32_t, int64_t, 0>),
    GK_CPU_KERNEL(kRange, gk_gs_scatter_elements<uint64_t, int32_t, 0>),
    GK_CPU_KERNEL(kRange, gk_gs_scatter_elements<uint64_t, int64_t, 0>),
    GK_GS_REDUCE(float),
    GK_GS_REDUCE(double),
    GK_GS_REDUCE(gk_half),
    GK_GS_REDUCE(gk_bf16),
    GK_GS_REDUCE(int8_t),
    GK_GS_REDUCE(int16_t),
    GK_GS_REDUCE(int32_t),
    GK_GS_REDUCE(int64_t),
    GK_GS_REDUCE(uint8_t),
    GK_GS_REDUCE(uint16_t),
    GK_GS_REDUCE(uint32_t),
    GK_GS_REDUCE(uint64_t),
    GK_GS_ONE_HOT(int8_t),
    GK_GS_ONE_HOT(int16_t),
    GK_GS_ONE_HOT(int32_t),
    GK_GS_ONE_HOT(int64_t),
    GK_GS_ONE_HOT(uint8_t),
    GK_GS_ONE_HOT(uint16_t),
    GK_GS_ONE_HOT(uint32_t),
    GK_GS_ONE_HOT(uint64_t),
    GK_GS_ONE_HOT(float),
    GK_GS_ONE_HOT(double),
    GK_GS_ONE_HOT(gk_half),
    GK_GS_ONE_HOT(gk_bf16),
};

#undef GK_GS_WI
#undef GK_GS_REDUCE
#undef GK_GS_ONE_HOT

}  // namespace

KernelFamily gather_scatter_kernels() { return {&kernel_sources::gather_scatter, kGatherScatterKernels}; }

}  // namespace gk::families
