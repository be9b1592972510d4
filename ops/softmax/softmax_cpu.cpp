// CPU instantiations of ops/softmax/softmax.cuh.
#include "ops/common/isa_variant.h"

GK_ISA_BEGIN
#include "ops/softmax/softmax.cuh"

namespace {

// Both kernels share one CPU twin (kBlocks); the names must both resolve.
#define GK_SM(T, MODE) \
  GK_CPU_KERNEL(kBlocks, gk_softmax_thread<T, MODE>), GK_CPU_KERNEL(kBlocks, gk_softmax_block<T, MODE>),
#define GK_SM_TYPES(MODE) GK_SM(float, MODE) GK_SM(double, MODE) GK_SM(gk_half, MODE) GK_SM(gk_bf16, MODE)

const ::gk::CpuKernelEntry kSoftmaxKernels[] = {GK_SM_TYPES(0) GK_SM_TYPES(1) GK_SM_TYPES(2)};

}  // namespace
GK_ISA_END

GK_ISA_FAMILY(softmax, kSoftmaxKernels)
