// The ml family: ArrayFeatureExtractor and Binarizer.
// Kernels: ops/ml/ml_ops.cuh; CPU twins: ops/ml/ml_ops_cpu.cpp.
#include "ops/ml/family.h"

namespace gk::families {

OpFamily ml_family() {
  return {.name = "ml",
          .tables = {ml_ops()},
          .kernels = ml_kernels()};
}

}  // namespace gk::families
