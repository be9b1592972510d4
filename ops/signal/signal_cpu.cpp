// CPU instantiations of ops/signal/signal.cuh.
#include "backends/cpu/cpu_kernel_table.h"
#include "ops/core/op.h"
#include "ops/kernel_sources.h"
#include "ops/signal/signal.cuh"

namespace gk::families {
namespace {

#define GK_SIGNAL(T) GK_CPU_KERNEL(kRange, gk_window<T>), GK_CPU_KERNEL(kRange, gk_mel_weight_matrix<T>),

const CpuKernelEntry kSignalKernels[] = {
    GK_SIGNAL(float) GK_SIGNAL(double) GK_SIGNAL(gk_half) GK_SIGNAL(gk_bf16) GK_SIGNAL(int8_t) GK_SIGNAL(int16_t)
        GK_SIGNAL(int32_t) GK_SIGNAL(int64_t) GK_SIGNAL(uint8_t) GK_SIGNAL(uint16_t) GK_SIGNAL(uint32_t)
            GK_SIGNAL(uint64_t)};

}  // namespace

KernelFamily signal_kernels() { return {&kernel_sources::signal, kSignalKernels}; }

}  // namespace gk::families
