// The normalization family: the normalizations, LRN and LpNormalization.
// Kernels: ops/normalization/normalization.cuh; CPU twins: ops/normalization/normalization_cpu.cpp.
#include "ops/core/family.h"

GK_FAMILY(normalization, normalization_ops, normalization_local_ops)
