// The resize family's tables (Resize and Upsample),
// assembled by ops/resize/family.cpp.
#pragma once

#include "ops/core/family.h"

namespace gk {
namespace families {
std::span<const OpSchema> resize_ops();  // resize.cpp
KernelFamily resize_kernels();           // resize_cpu.cpp
}  // namespace families
}  // namespace gk
