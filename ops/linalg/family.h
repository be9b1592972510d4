// The linalg family's tables (Det),
// assembled by ops/linalg/family.cpp.
#pragma once

#include "ops/core/family.h"

namespace gk {
namespace families {
std::span<const OpSchema> det_ops();  // det.cpp
KernelFamily linalg_kernels();        // linalg_cpu.cpp
}  // namespace families
}  // namespace gk
