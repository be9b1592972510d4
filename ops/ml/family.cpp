// The ml family: ArrayFeatureExtractor, Binarizer, LinearClassifier, LinearRegressor,
// Scaler, Normalizer, Imputer, OneHotEncoder, FeatureVectorizer, SVMRegressor, SVMClassifier (and ZipMap,
// DictVectorizer, CastMap refused by name).
// Kernels: ops/ml/ml_ops.cuh; CPU twins: ops/ml/ml_ops_cpu.cpp.
#include "ops/core/family.h"

GK_FAMILY(ml, ml_ops, linear_ops, encoder_ops, svm_ops)
