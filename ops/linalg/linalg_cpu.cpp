// CPU instantiations of ops/linalg/linalg.cuh.
#include "backends/cpu/cpu_kernel_table.h"
#include "ops/core/op.h"
#include "ops/kernel_sources.h"
#include "ops/linalg/linalg.cuh"

namespace gk::families {
namespace {

const CpuKernelEntry kLinalgKernels[] = {
    GK_CPU_KERNEL(kRange, gk_det<float>),
    GK_CPU_KERNEL(kRange, gk_det<double>),
    GK_CPU_KERNEL(kRange, gk_det<gk_half>),
    GK_CPU_KERNEL(kRange, gk_det<gk_bf16>),
};

}  // namespace

KernelFamily linalg_kernels() { return {&kernel_sources::linalg, kLinalgKernels}; }

}  // namespace gk::families
