// The conv family: Conv and ConvTranspose.
// Kernels: ops/conv/conv.cuh; CPU twins: ops/conv/conv_cpu.cpp.
#include "ops/core/family.h"

GK_FAMILY(conv, conv_ops, conv_transpose_ops)
