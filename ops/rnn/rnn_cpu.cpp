// CPU instantiations of ops/rnn/rnn.cuh.
#include "backends/cpu/cpu_kernel_table.h"
#include "ops/rnn/family.h"
#include "ops/kernel_sources.h"
#include "ops/rnn/rnn.cuh"

namespace gk::families {
namespace {

#define GK_RNN(T)                                                                              \
  GK_CPU_KERNEL(kRange, gk_rnn_step<T>), GK_CPU_KERNEL(kRange, gk_gru_gates<T>),               \
      GK_CPU_KERNEL(kRange, gk_gru_step<T>), GK_CPU_KERNEL(kRange, gk_lstm_step<T>),           \
      GK_CPU_KERNEL(kRange, gk_rnn_state_io<T>),

const CpuKernelEntry kRnnKernels[] = {GK_RNN(float) GK_RNN(double) GK_RNN(gk_half) GK_RNN(gk_bf16)};

}  // namespace

KernelFamily rnn_kernels() { return {&kernel_sources::rnn, kRnnKernels}; }

}  // namespace gk::families
