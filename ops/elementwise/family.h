// The elementwise family's tables (the broadcasting binary ops and the variadic ones (Sum, Max, Mean, ...)),
// assembled by ops/elementwise/family.cpp.
#pragma once

#include "ops/core/family.h"

namespace gk {
namespace families {
std::span<const OpSchema> elementwise_ops();  // elementwise.cpp
std::span<const OpSchema> variadic_ops();     // variadic.cpp
KernelFamily elementwise_kernels();           // elementwise_cpu.cpp
}  // namespace families
}  // namespace gk
