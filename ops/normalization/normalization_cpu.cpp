// CPU instantiations of ops/normalization/normalization.cuh.
#include "ops/common/isa_variant.h"

GK_ISA_BEGIN
#include "ops/normalization/normalization.cuh"

namespace {

#define GK_NORM(T) GK_CPU_KERNEL(kBlocks, gk_norm_rows<T, float>), GK_CPU_KERNEL(kBlocks, gk_norm_rows<T, double>),
// Scale/bias and mean/var each in the input's type or float32 (opset 15).
#define GK_BN(T) \
  GK_CPU_KERNEL(kRange, gk_batchnorm<T, T, T>), GK_CPU_KERNEL(kRange, gk_batchnorm<T, float, float>), \
  GK_CPU_KERNEL(kRange, gk_batchnorm<T, T, float>), GK_CPU_KERNEL(kRange, gk_batchnorm<T, float, T>), \
  GK_CPU_KERNEL(kRange, gk_batchnorm_stats<T, T>), GK_CPU_KERNEL(kRange, gk_batchnorm_stats<T, float>),
#define GK_LOCAL(T) GK_CPU_KERNEL(kRange, gk_lrn<T>), GK_CPU_KERNEL(kBlocks, gk_lpnorm<T>),

const ::gk::CpuKernelEntry kNormKernels[] = {
    GK_NORM(float) GK_NORM(double) GK_NORM(gk_half) GK_NORM(gk_bf16)
    GK_CPU_KERNEL(kRange, gk_batchnorm<float, float, float>),
    GK_CPU_KERNEL(kRange, gk_batchnorm_stats<float, float>),
    GK_BN(double) GK_BN(gk_half) GK_BN(gk_bf16)
    GK_LOCAL(float) GK_LOCAL(double) GK_LOCAL(gk_half) GK_LOCAL(gk_bf16)
};

}  // namespace
GK_ISA_END

GK_ISA_FAMILY(normalization, kNormKernels)
