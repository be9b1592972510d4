// The tree_ensemble family: TreeEnsemble and TreeEnsembleRegressor.
// Kernels: ops/tree_ensemble/tree_ensemble.cuh; CPU twins: ops/tree_ensemble/tree_ensemble_cpu.cpp.
#include "ops/tree_ensemble/family.h"

namespace gk::families {

OpFamily tree_ensemble_family() {
  return {.name = "tree_ensemble",
          .tables = {tree_ensemble_ops()},
          .kernels = tree_ensemble_kernels()};
}

}  // namespace gk::families
