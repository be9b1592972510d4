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
    GK_CPU_KERNEL(kRange, gk_linear_classifier<float>),
    GK_CPU_KERNEL(kRange, gk_linear_classifier<double>),
    GK_CPU_KERNEL(kRange, gk_linear_classifier<int32_t>),
    GK_CPU_KERNEL(kRange, gk_linear_classifier<int64_t>),
    GK_CPU_KERNEL(kRange, gk_linear_regressor<float>),
    GK_CPU_KERNEL(kRange, gk_linear_regressor<double>),
    GK_CPU_KERNEL(kRange, gk_linear_regressor<int32_t>),
    GK_CPU_KERNEL(kRange, gk_linear_regressor<int64_t>),
    GK_CPU_KERNEL(kRange, gk_scaler<float>),
    GK_CPU_KERNEL(kRange, gk_scaler<double>),
    GK_CPU_KERNEL(kRange, gk_scaler<int32_t>),
    GK_CPU_KERNEL(kRange, gk_scaler<int64_t>),
    GK_CPU_KERNEL(kRange, gk_normalizer<float>),
    GK_CPU_KERNEL(kRange, gk_normalizer<double>),
    GK_CPU_KERNEL(kRange, gk_normalizer<int32_t>),
    GK_CPU_KERNEL(kRange, gk_normalizer<int64_t>),
    GK_CPU_KERNEL(kRange, gk_imputer<float>),
    GK_CPU_KERNEL(kRange, gk_imputer<double>),
    GK_CPU_KERNEL(kRange, gk_imputer<int32_t>),
    GK_CPU_KERNEL(kRange, gk_imputer<int64_t>),
    GK_CPU_KERNEL(kRange, gk_one_hot_encode<float>),
    GK_CPU_KERNEL(kRange, gk_one_hot_encode<double>),
    GK_CPU_KERNEL(kRange, gk_one_hot_encode<int32_t>),
    GK_CPU_KERNEL(kRange, gk_one_hot_encode<int64_t>),
    GK_CPU_KERNEL(kRange, gk_feature_place<float>),
    GK_CPU_KERNEL(kRange, gk_feature_place<double>),
    GK_CPU_KERNEL(kRange, gk_feature_place<int32_t>),
    GK_CPU_KERNEL(kRange, gk_feature_place<int64_t>),
    GK_CPU_KERNEL(kRange, gk_svm_regressor<float>),
    GK_CPU_KERNEL(kRange, gk_svm_regressor<double>),
    GK_CPU_KERNEL(kRange, gk_svm_regressor<int32_t>),
    GK_CPU_KERNEL(kRange, gk_svm_regressor<int64_t>),
    GK_CPU_KERNEL(kRange, gk_svm_classifier<float>),
    GK_CPU_KERNEL(kRange, gk_svm_classifier<double>),
    GK_CPU_KERNEL(kRange, gk_svm_classifier<int32_t>),
    GK_CPU_KERNEL(kRange, gk_svm_classifier<int64_t>),
};

}  // namespace

KernelFamily ml_kernels() { return {&kernel_sources::ml_ops, kMlKernels}; }

}  // namespace gk::families
