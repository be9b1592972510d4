// CPU instantiations of ops/ml/ml_ops.cuh.
#include "backends/cpu/cpu_kernel_table.h"
#include "ops/core/op.h"
#include "ops/kernel_sources.h"
#include "ops/ml/ml_ops.cuh"

namespace gk::families {
namespace {

const CpuKernelEntry kMlKernels[] = {
    GK_CPU_KERNEL(kRange, gk_binarizer<float>),
    GK_CPU_KERNEL(kRange, gk_binarizer<double>),
    GK_CPU_KERNEL(kRange, gk_binarizer<int32_t>),
    GK_CPU_KERNEL(kRange, gk_binarizer<int64_t>),
    GK_CPU_KERNEL(kRange, gk_array_feature_extract<uint8_t>),
    GK_CPU_KERNEL(kRange, gk_array_feature_extract<uint16_t>),
    GK_CPU_KERNEL(kRange, gk_array_feature_extract<uint32_t>),
    GK_CPU_KERNEL(kRange, gk_array_feature_extract<uint64_t>),
};

}  // namespace

KernelFamily ml_kernels() { return {&kernel_sources::ml_ops, kMlKernels}; }

}  // namespace gk::families
