// The unary family's tables (the unary math ops and the activations),
// assembled by ops/unary/family.cpp.
#pragma once

#include "ops/core/family.h"

namespace gk {
namespace families {
std::span<const OpSchema> unary_ops();       // unary.cpp
std::span<const OpSchema> activation_ops();  // activations.cpp
KernelFamily unary_kernels();                // unary_cpu.cpp
}  // namespace families
}  // namespace gk
