// CPU instantiations of ops/tree_ensemble/tree_ensemble.cuh: <input, output, accumulator>.
#include "backends/cpu/cpu_kernel_table.h"
#include "ops/core/op.h"
#include "ops/kernel_sources.h"
#include "ops/tree_ensemble/tree_ensemble.cuh"

namespace gk::families {
namespace {

const CpuKernelEntry kTreeKernels[] = {
    // TreeEnsemble-5: the output takes the input's type.
    GK_CPU_KERNEL(kRange, gk_tree_ensemble<float, float, float>),
    GK_CPU_KERNEL(kRange, gk_tree_ensemble<double, double, double>),
    GK_CPU_KERNEL(kRange, gk_tree_ensemble<gk_half, gk_half, float>),
    // TreeEnsembleRegressor: float output.
    GK_CPU_KERNEL(kRange, gk_tree_ensemble<double, float, float>),
    GK_CPU_KERNEL(kRange, gk_tree_ensemble<int32_t, float, float>),
    GK_CPU_KERNEL(kRange, gk_tree_ensemble<int64_t, float, float>),
    // TreeEnsembleClassifier: int64 labels, float scores.
    GK_CPU_KERNEL(kRange, gk_tree_classifier<float, float>),
    GK_CPU_KERNEL(kRange, gk_tree_classifier<double, float>),
    GK_CPU_KERNEL(kRange, gk_tree_classifier<int32_t, float>),
    GK_CPU_KERNEL(kRange, gk_tree_classifier<int64_t, float>),
};

}  // namespace

KernelFamily tree_ensemble_kernels() { return {&kernel_sources::tree_ensemble, kTreeKernels}; }

}  // namespace gk::families
