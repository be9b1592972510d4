// The rnn family: RNN, GRU and LSTM.
// Kernels: ops/rnn/rnn.cuh; CPU twins: ops/rnn/rnn_cpu.cpp.
#include "ops/core/family.h"

GK_FAMILY(rnn, rnn_ops)
