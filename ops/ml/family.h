// The ml family's tables (ArrayFeatureExtractor and Binarizer; the linear models,
// Scaler, Normalizer and the refused map ops; Imputer, OneHotEncoder, FeatureVectorizer; SVMRegressor, SVMClassifier),
// assembled by ops/ml/family.cpp.
#pragma once

#include "ops/core/family.h"

namespace gk {
namespace families {
std::span<const OpSchema> ml_ops();  // ml_ops.cpp
std::span<const OpSchema> linear_ops();  // linear.cpp
std::span<const OpSchema> encoder_ops();  // encoders.cpp
std::span<const OpSchema> svm_ops();      // svm.cpp
KernelFamily ml_kernels();           // ml_ops_cpu.cpp
}  // namespace families
}  // namespace gk
