// The gather_scatter family: Gather* and Scatter*.
// Kernels: ops/gather_scatter/gather_scatter.cuh; CPU twins: ops/gather_scatter/gather_scatter_cpu.cpp.
#include "ops/core/family.h"

GK_FAMILY(gather_scatter, gather_ops, scatter_ops)
