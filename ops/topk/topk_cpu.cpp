// CPU instantiations of ops/topk/topk.cuh.
#include "backends/cpu/cpu_kernel_table.h"
#include "ops/core/op.h"
#include "ops/kernel_sources.h"
#include "ops/topk/topk.cuh"

namespace gk::families {
namespace {

const CpuKernelEntry kTopkKernels[] = {
    GK_CPU_KERNEL(kRange, gk_topk<float>),    GK_CPU_KERNEL(kRange, gk_topk<double>),
    GK_CPU_KERNEL(kRange, gk_topk<gk_half>),  GK_CPU_KERNEL(kRange, gk_topk<gk_bf16>),
    GK_CPU_KERNEL(kRange, gk_topk<int8_t>),   GK_CPU_KERNEL(kRange, gk_topk<uint8_t>),
    GK_CPU_KERNEL(kRange, gk_topk<int16_t>),  GK_CPU_KERNEL(kRange, gk_topk<uint16_t>),
    GK_CPU_KERNEL(kRange, gk_topk<int32_t>),  GK_CPU_KERNEL(kRange, gk_topk<uint32_t>),
    GK_CPU_KERNEL(kRange, gk_topk<int64_t>),  GK_CPU_KERNEL(kRange, gk_topk<uint64_t>),
};

}  // namespace

KernelFamily topk_kernels() { return {&kernel_sources::topk, kTopkKernels}; }

}  // namespace gk::families
