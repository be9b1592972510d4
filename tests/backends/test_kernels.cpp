#include "backends/cpu/cpu_kernel_table.h"
#include "backends/kernel_prelude.cuh"
#include "tests/backends/kernels/test_kernels.cuh"
#include "tests/backends/test_kernels.h"

namespace gk::test {

namespace {
const CpuKernelEntry kTestKernels[] = {
    GK_CPU_KERNEL(kRange, gk_test_vector_add<float>),
    GK_CPU_KERNEL(kRange, gk_test_vector_add<int32_t>),
    GK_CPU_KERNEL(kRange, gk_test_vector_add<double>),
    GK_CPU_KERNEL(kRange, gk_test_saxpy),
    GK_CPU_KERNEL(kThreads, gk_test_grid2d),
    GK_CPU_KERNEL(kRange, gk_test_i64_affine),
    GK_CPU_KERNEL(kThreads, gk_test_bounded_scale),
    GK_CPU_KERNEL(kRange, gk_test_pod_arg),
};
}  // namespace

CpuKernelTable test_kernel_table() { return kTestKernels; }
const KernelSource& test_kernel_source() { return kernel_sources::test_kernels; }

}  // namespace gk::test
