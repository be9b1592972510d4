// The tree_ensemble family: TreeEnsemble, TreeEnsembleRegressor and TreeEnsembleClassifier.
// Kernels: ops/tree_ensemble/tree_ensemble.cuh; CPU twins: ops/tree_ensemble/tree_ensemble_cpu.cpp.
#include "ops/core/family.h"

GK_FAMILY(tree_ensemble, tree_ensemble_ops)
