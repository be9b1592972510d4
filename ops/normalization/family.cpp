// The normalization family: the normalizations, LRN and LpNormalization.
// Kernels: ops/normalization/normalization.cuh; CPU twins: ops/normalization/normalization_cpu.cpp.
#include "ops/normalization/family.h"

namespace gk::families {

OpFamily normalization_family() {
  return {.name = "normalization",
          .tables = {normalization_ops(), normalization_local_schemas()},
          .kernels = normalization_kernels()};
}

}  // namespace gk::families
