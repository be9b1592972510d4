// The attention family: Attention, RMSNormalization and RotaryEmbedding.
// Kernels: ops/attention/attention.cuh; CPU twins: ops/attention/attention_cpu.cpp.
#include "ops/core/family.h"

GK_FAMILY(attention, attention_ops, rms_rope_ops)
