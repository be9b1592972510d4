// CPU instantiations of ops/tensor_scatter/tensor_scatter.cuh.
#include "backends/cpu/cpu_kernel_table.h"
#include "ops/core/op.h"
#include "ops/kernel_sources.h"
#include "ops/tensor_scatter/tensor_scatter.cuh"

namespace gk::families {
namespace {

const CpuKernelEntry kTensorScatterKernels[] = {
    GK_CPU_KERNEL(kRange, gk_tensor_scatter<uint8_t>),
    GK_CPU_KERNEL(kRange, gk_tensor_scatter<uint16_t>),
    GK_CPU_KERNEL(kRange, gk_tensor_scatter<uint32_t>),
    GK_CPU_KERNEL(kRange, gk_tensor_scatter<uint64_t>),
};

}  // namespace

KernelFamily tensor_scatter_kernels() { return {&kernel_sources::tensor_scatter, kTensorScatterKernels}; }

}  // namespace gk::families
