// The tensor_scatter family: TensorScatter.
// Kernels: ops/tensor_scatter/tensor_scatter.cuh; CPU twins: ops/tensor_scatter/tensor_scatter_cpu.cpp.
#include "ops/core/family.h"

GK_FAMILY(tensor_scatter, tensor_scatter_ops)
