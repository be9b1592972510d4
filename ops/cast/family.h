// The cast family's tables (Cast and CastLike),
// assembled by ops/cast/family.cpp.
#pragma once

#include "ops/core/family.h"

namespace gk {
namespace families {
std::span<const OpSchema> cast_ops();  // cast.cpp
KernelFamily cast_kernels();           // cast_cpu.cpp
}  // namespace families
}  // namespace gk
