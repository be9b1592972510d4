// The linalg family: Det.
// Kernels: ops/linalg/linalg.cuh; CPU twins: ops/linalg/linalg_cpu.cpp.
#include "ops/core/family.h"

GK_FAMILY(linalg, det_ops)
