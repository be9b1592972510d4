// The rnn family's tables (RNN, GRU and LSTM),
// assembled by ops/rnn/family.cpp.
#pragma once

#include "ops/core/family.h"

namespace gk {
namespace families {
std::span<const OpSchema> rnn_ops();  // rnn.cpp
KernelFamily rnn_kernels();           // rnn_cpu.cpp
}  // namespace families
}  // namespace gk
