// The tfidf family: TfIdfVectorizer.
// Kernels: ops/tfidf/tfidf.cuh; CPU twins: ops/tfidf/tfidf_cpu.cpp.
#include "ops/core/family.h"

GK_FAMILY(tfidf, tfidf_ops)
