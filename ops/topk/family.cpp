// The topk family: TopK.
// Kernels: ops/topk/topk.cuh; CPU twins: ops/topk/topk_cpu.cpp.
#include "ops/core/family.h"

GK_FAMILY(topk, topk_ops)
