// The unary family: the unary math ops and the activations.
// Kernels: ops/unary/unary.cuh; CPU twins: ops/unary/unary_cpu.cpp.
#include "ops/core/family.h"

GK_FAMILY(unary, unary_ops, activation_ops)
