// The dft family's tables (DFT and STFT),
// assembled by ops/dft/family.cpp.
#pragma once

#include "ops/core/family.h"

namespace gk {
namespace families {
std::span<const OpSchema> dft_ops();  // dft.cpp
KernelFamily dft_kernels();           // dft_cpu.cpp
}  // namespace families
}  // namespace gk
