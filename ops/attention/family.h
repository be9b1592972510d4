// The attention family's tables (Attention, RMSNormalization and RotaryEmbedding),
// assembled by ops/attention/family.cpp.
#pragma once

#include "ops/core/family.h"

namespace gk {
namespace families {
std::span<const OpSchema> attention_ops();  // attention.cpp
KernelFamily attention_kernels();           // attention_cpu.cpp
}  // namespace families
std::span<const OpSchema> rms_rope_schemas();  // rms_rope.cpp
}  // namespace gk
