// The matmul family: MatMul, Gemm and Einsum.
// Kernels: ops/matmul/matmul.cuh; CPU twins: ops/matmul/matmul_cpu.cpp.
#include "ops/matmul/family.h"

namespace gk::families {

OpFamily matmul_family() {
  return {.name = "matmul",
          .tables = {matmul_ops(), gemm_ops(), einsum_ops()},
          .kernels = matmul_kernels()};
}

}  // namespace gk::families
