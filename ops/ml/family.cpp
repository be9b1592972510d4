// The ml family: ArrayFeatureExtractor and Binarizer.
// Kernels: ops/ml/ml_ops.cuh; CPU twins: ops/ml/ml_ops_cpu.cpp.
#include "ops/core/family.h"

GK_FAMILY(ml, ml_ops)
