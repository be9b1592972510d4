// CPU side of the resize kernel family: every kernel is a plain GK_KERNEL_LOOP.
// Filtered passes read the input type on the first pass and write it on the last;
// float/double intermediates in between (ops/resize.cpp picks the names).
#include "backends/cpu/cpu_kernel_table.h"
#include "ops/families.h"
#include "ops/kernel_sources.h"
#include "ops/kernels/resize.cuh"

namespace gk::families {
namespace {

// A type T whose intermediates are W (W itself is listed once, <W, W, W>).
#define GK_RESIZE_MIXED(T, W)                                                     \
  GK_CPU_KERNEL(kRange, gk_resize_pass<T, W, W>), GK_CPU_KERNEL(kRange, gk_resize_pass<W, T, W>), \
      GK_CPU_KERNEL(kRange, gk_resize_pass<T, T, W>)

const CpuKernelEntry kResizeKernels[] = {
    GK_CPU_KERNEL(kRange, gk_resize_index),
    GK_CPU_KERNEL(kRange, gk_resize_weights<float>),
    GK_CPU_KERNEL(kRange, gk_resize_weights<double>),
    GK_CPU_KERNEL(kRange, gk_resize_pass<float, float, float>),
    GK_CPU_KERNEL(kRange, gk_resize_pass<double, double, double>),
    GK_RESIZE_MIXED(gk_half, float),
    GK_RESIZE_MIXED(gk_bf16, float),
    GK_RESIZE_MIXED(uint8_t, float),
    GK_RESIZE_MIXED(int8_t, float),
    GK_RESIZE_MIXED(int32_t, double),
    GK_CPU_KERNEL(kRange, gk_resize_nearest<float>),
    GK_CPU_KERNEL(kRange, gk_resize_nearest<double>),
    GK_CPU_KERNEL(kRange, gk_resize_nearest<gk_half>),
    GK_CPU_KERNEL(kRange, gk_resize_nearest<gk_bf16>),
    GK_CPU_KERNEL(kRange, gk_resize_nearest<int8_t>),
    GK_CPU_KERNEL(kRange, gk_resize_nearest<uint8_t>),
    GK_CPU_KERNEL(kRange, gk_resize_nearest<int16_t>),
    GK_CPU_KERNEL(kRange, gk_resize_nearest<uint16_t>),
    GK_CPU_KERNEL(kRange, gk_resize_nearest<int32_t>),
    GK_CPU_KERNEL(kRange, gk_resize_nearest<uint32_t>),
    GK_CPU_KERNEL(kRange, gk_resize_nearest<int64_t>),
    GK_CPU_KERNEL(kRange, gk_resize_nearest<uint64_t>),
    GK_CPU_KERNEL(kRange, gk_resize_nearest<bool>),
};

#undef GK_RESIZE_MIXED

}  // namespace

KernelFamily resize_kernels() { return {&kernel_sources::resize, kResizeKernels}; }

}  // namespace gk::families
