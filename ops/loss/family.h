// The loss family's tables (the losses),
// assembled by ops/loss/family.cpp.
#pragma once

#include "ops/core/family.h"

namespace gk {
namespace families {
std::span<const OpSchema> loss_ops();  // loss.cpp
KernelFamily loss_kernels();           // loss_cpu.cpp
}  // namespace families
}  // namespace gk
