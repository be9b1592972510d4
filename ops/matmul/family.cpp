// The matmul family: MatMul, Gemm and Einsum.
// Kernels: ops/matmul/matmul.cuh; CPU twins: ops/matmul/matmul_cpu.cpp.
#include "ops/core/family.h"

GK_FAMILY(matmul, matmul_ops, gemm_ops, einsum_ops)
