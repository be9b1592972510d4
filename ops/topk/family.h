// The topk family's tables (TopK),
// assembled by ops/topk/family.cpp.
#pragma once

#include "ops/core/family.h"

namespace gk {
namespace families {
std::span<const OpSchema> topk_ops();  // topk.cpp
KernelFamily topk_kernels();           // topk_cpu.cpp
}  // namespace families
}  // namespace gk
