// The tfidf family's tables (TfIdfVectorizer),
// assembled by ops/tfidf/family.cpp.
#pragma once

#include "ops/core/family.h"

namespace gk {
namespace families {
std::span<const OpSchema> tfidf_ops();  // tfidf.cpp
KernelFamily tfidf_kernels();           // tfidf_cpu.cpp
}  // namespace families
}  // namespace gk
