// CPU instantiations of ops/dft/dft.cuh.
#include "backends/cpu/cpu_kernel_table.h"
#include "ops/core/op.h"
#include "ops/kernel_sources.h"
#include "ops/dft/dft.cuh"

namespace gk::families {
namespace {

const CpuKernelEntry kDftKernels[] = {
    GK_CPU_KERNEL(kRange, gk_dft_twiddles<float>), GK_CPU_KERNEL(kRange, gk_dft_twiddles<double>),
    GK_CPU_KERNEL(kRange, gk_dft<float>),          GK_CPU_KERNEL(kRange, gk_dft<double>),
    GK_CPU_KERNEL(kRange, gk_dft<gk_half>),        GK_CPU_KERNEL(kRange, gk_dft<gk_bf16>),
};

}  // namespace

KernelFamily dft_kernels() { return {&kernel_sources::dft, kDftKernels}; }

}  // namespace gk::families
