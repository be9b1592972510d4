// The tensor_scatter family's tables (TensorScatter),
// assembled by ops/tensor_scatter/family.cpp.
#pragma once

#include "ops/core/family.h"

namespace gk {
namespace families {
std::span<const OpSchema> tensor_scatter_ops();  // tensor_scatter.cpp
KernelFamily tensor_scatter_kernels();           // tensor_scatter_cpu.cpp
}  // namespace families
}  // namespace gk
