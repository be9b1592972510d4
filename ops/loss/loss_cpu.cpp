// CPU instantiations of ops/loss/loss.cuh.
#include "backends/cpu/cpu_kernel_table.h"
#include "ops/core/op.h"
#include "ops/kernel_sources.h"
#include "ops/loss/loss.cuh"

namespace gk::families {
namespace {

// gk_loss_reduce is its own CPU twin, launched as one block.
#define GK_LOSS(T, I) GK_CPU_KERNEL(kRange, gk_loss_none<T, I>), GK_CPU_KERNEL(kBlocks, gk_loss_reduce<T, I>),
#define GK_LOSS_T(T) GK_LOSS(T, int32_t) GK_LOSS(T, int64_t)

const CpuKernelEntry kLossKernels[] = {GK_LOSS_T(float) GK_LOSS_T(double) GK_LOSS_T(gk_half) GK_LOSS_T(gk_bf16)};

}  // namespace

KernelFamily loss_kernels() { return {&kernel_sources::loss, kLossKernels}; }

}  // namespace gk::families
