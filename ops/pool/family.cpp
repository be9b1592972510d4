// The pool family: the pooling ops.
// Kernels: ops/pool/pool.cuh; CPU twins: ops/pool/pool_cpu.cpp.
#include "ops/core/family.h"

GK_FAMILY(pool, pool_ops)
