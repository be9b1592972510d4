// CPU instantiations of ops/tfidf/tfidf.cuh.
#include "backends/cpu/cpu_kernel_table.h"
#include "ops/core/op.h"
#include "ops/kernel_sources.h"
#include "ops/tfidf/tfidf.cuh"

namespace gk::families {
namespace {

const CpuKernelEntry kTfIdfKernels[] = {
    GK_CPU_KERNEL(kRange, gk_tfidf<int32_t>),
    GK_CPU_KERNEL(kRange, gk_tfidf<int64_t>),
};

}  // namespace

KernelFamily tfidf_kernels() { return {&kernel_sources::tfidf, kTfIdfKernels}; }

}  // namespace gk::families
