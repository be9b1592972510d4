// The quantize family's tables (the quantization ops and the QLinear* ops),
// assembled by ops/quantize/family.cpp.
#pragma once

#include "ops/core/family.h"

namespace gk {
namespace families {
std::span<const OpSchema> quantize_ops();  // quantize.cpp
std::span<const OpSchema> qlinear_ops();   // qlinear.cpp
KernelFamily quantize_kernels();           // quantize_cpu.cpp
}  // namespace families
}  // namespace gk
