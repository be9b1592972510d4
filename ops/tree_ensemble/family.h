// The tree_ensemble family's tables (TreeEnsemble and TreeEnsembleRegressor),
// assembled by ops/tree_ensemble/family.cpp.
#pragma once

#include "ops/core/family.h"

namespace gk {
namespace families {
std::span<const OpSchema> tree_ensemble_ops();  // tree_ensemble.cpp
KernelFamily tree_ensemble_kernels();           // tree_ensemble_cpu.cpp
}  // namespace families
}  // namespace gk
