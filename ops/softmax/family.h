// The softmax family's tables (Softmax, LogSoftmax and Hardmax),
// assembled by ops/softmax/family.cpp.
#pragma once

#include "ops/core/family.h"

namespace gk {
namespace families {
std::span<const OpSchema> softmax_ops();  // softmax.cpp
KernelFamily softmax_kernels();           // softmax_cpu.cpp
}  // namespace families
}  // namespace gk
