// The tfidf family: TfIdfVectorizer.
// Kernels: ops/tfidf/tfidf.cuh; CPU twins: ops/tfidf/tfidf_cpu.cpp.
#include "ops/tfidf/family.h"

namespace gk::families {

OpFamily tfidf_family() {
  return {.name = "tfidf",
          .tables = {tfidf_ops()},
          .kernels = tfidf_kernels()};
}

}  // namespace gk::families
