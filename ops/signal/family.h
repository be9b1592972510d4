// The signal family's tables (the window functions and MelWeightMatrix),
// assembled by ops/signal/family.cpp.
#pragma once

#include "ops/core/family.h"

namespace gk {
namespace families {
std::span<const OpSchema> signal_ops();  // signal_ops.cpp
KernelFamily signal_kernels();           // signal_cpu.cpp
}  // namespace families
}  // namespace gk
