// CPU instantiations of ops/softmax/softmax.cuh.
#include "backends/cpu/cpu_kernel_table.h"
#include "ops/core/op.h"
#include "ops/kernel_sources.h"
#include "ops/softmax/softmax.cuh"

namespace gk::families {
namespace {

// Both kernels share one CPU twin (kBlocks); the names must both resolve.
#define GK_SM(T, MODE) \
  GK_CPU_KERNEL(kBlocks, gk_softmax_thread<T, MODE>), GK_CPU_KERNEL(kBlocks, gk_softmax_block<T, MODE>),
#define GK_SM_TYPES(MODE) GK_SM(float, MODE) GK_SM(double, MODE) GK_SM(gk_half, MODE) GK_SM(gk_bf16, MODE)

const CpuKernelEntry kSoftmaxKernels[] = {GK_SM_TYPES(0) GK_SM_TYPES(1) GK_SM_TYPES(2)};

}  // namespace

KernelFamily softmax_kernels() { return {&kernel_sources::softmax, kSoftmaxKernels}; }

}  // namespace gk::families
