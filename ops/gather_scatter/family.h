// The gather_scatter family's tables (Gather* and Scatter*),
// assembled by ops/gather_scatter/family.cpp.
#pragma once

#include "ops/core/family.h"

namespace gk {
namespace families {
KernelFamily gather_scatter_kernels();  // gather_scatter_cpu.cpp
}  // namespace families
namespace dm {
std::span<const OpSchema> gather_op_table();   // gather.cpp
std::span<const OpSchema> scatter_op_table();  // scatter.cpp
}  // namespace dm
}  // namespace gk
