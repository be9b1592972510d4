// CPU side of the pool kernel family: the kernels are plain GK_KERNEL_LOOPs.
#include "backends/cpu/cpu_kernel_table.h"
#include "ops/families.h"
#include "ops/kernel_sources.h"
#include "ops/kernels/pool.cuh"

namespace gk::families {
namespace {

#define GK_POOL_FLOAT_KERNELS(T)                                                           \
  GK_CPU_KERNEL(kRange, gk_maxpool<T>), GK_CPU_KERNEL(kRange, gk_avgpool<T>),              \
      GK_CPU_KERNEL(kRange, gk_lppool<T>), GK_CPU_KERNEL(kRange, gk_global_pool<T>),       \
      GK_CPU_KERNEL(kRange, gk_pool_zero<T>), GK_CPU_KERNEL(kRange, gk_maxunpool<T>)

const CpuKernelEntry kPoolKernels[] = {
    GK_POOL_FLOAT_KERNELS(float),
    GK_POOL_FLOAT_KERNELS(double),
    GK_POOL_FLOAT_KERNELS(gk_half),
    GK_POOL_FLOAT_KERNELS(gk_bf16),
    GK_CPU_KERNEL(kRange, gk_maxpool<int8_t>),
    GK_CPU_KERNEL(kRange, gk_maxpool<uint8_t>),
};

}  // namespace

KernelFamily pool_kernels() { return {&kernel_sources::pool, kPoolKernels}; }

}  // namespace gk::families
