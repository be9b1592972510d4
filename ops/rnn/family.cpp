// The rnn family: RNN, GRU and LSTM.
// Kernels: ops/rnn/rnn.cuh; CPU twins: ops/rnn/rnn_cpu.cpp.
#include "ops/rnn/family.h"

namespace gk::families {

OpFamily rnn_family() {
  return {.name = "rnn",
          .tables = {rnn_ops()},
          .kernels = rnn_kernels()};
}

}  // namespace gk::families
