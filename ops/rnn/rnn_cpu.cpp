// CPU instantiations of ops/rnn/rnn.cuh.
#include "backends/cpu/cpu_kernel_table.h"
#include "ops/core/op.h"
#include "ops/kernel_sources.h"
#include "ops/rnn/rnn.cuh"

namespace gk::families {
namespace {

#define GK_RNN(T)                                                                              \
  GK_CPU_KERNEL(kRange, gk_rnn_step<T>), GK_CPU_KERNEL(kRange, gk_gru_gates<T>),               \
      GK_CPU_KERNEL(kRange, gk_gru_step<T>), GK_CPU_KERNEL(kRange, gk_lstm_step<T>),           \
      GK_CPU_KERNEL(kRange, gk_rnn_state_io<T>),

// The GEMM form's cells: f32 and f64 only (rnn.cuh).
#define GK_RNN_CELLS(T)                                                                       \
  GK_CPU_KERNEL(kRange, gk_rnn_cell<T>), GK_CPU_KERNEL(kRange, gk_gru_cell_zr<T>),           \
      GK_CPU_KERNEL(kRange, gk_gru_cell_h<T>), GK_CPU_KERNEL(kRange, gk_lstm_cell<T>),                \
      GK_CPU_KERNEL(kRange, gk_rnn_transpose<T>),

const CpuKernelEntry kRnnKernels[] = {GK_RNN(float) GK_RNN(double) GK_RNN(gk_half) GK_RNN(gk_bf16)
                                          GK_RNN_CELLS(float) GK_RNN_CELLS(double)};

}  // namespace

KernelFamily rnn_kernels() { return {&kernel_sources::rnn, kRnnKernels}; }

}  // namespace gk::families
