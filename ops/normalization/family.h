// The normalization family's tables (the normalizations, LRN and LpNormalization),
// assembled by ops/normalization/family.cpp.
#pragma once

#include "ops/core/family.h"

namespace gk {
namespace families {
std::span<const OpSchema> normalization_ops();  // normalization.cpp
KernelFamily normalization_kernels();           // normalization_cpu.cpp
}  // namespace families
std::span<const OpSchema> normalization_local_schemas();  // normalization_local.cpp
}  // namespace gk
