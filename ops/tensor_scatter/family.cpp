// The tensor_scatter family: TensorScatter.
// Kernels: ops/tensor_scatter/tensor_scatter.cuh; CPU twins: ops/tensor_scatter/tensor_scatter_cpu.cpp.
#include "ops/tensor_scatter/family.h"

namespace gk::families {

OpFamily tensor_scatter_family() {
  return {.name = "tensor_scatter",
          .tables = {tensor_scatter_ops()},
          .kernels = tensor_scatter_kernels()};
}

}  // namespace gk::families
