// The conv family's tables (Conv and ConvTranspose),
// assembled by ops/conv/family.cpp.
#pragma once

#include "ops/core/family.h"

namespace gk {
namespace families {
std::span<const OpSchema> conv_ops();            // conv.cpp
std::span<const OpSchema> conv_transpose_ops();  // conv_transpose.cpp
KernelFamily conv_kernels();                     // conv_cpu.cpp
}  // namespace families
}  // namespace gk
