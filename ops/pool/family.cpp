// The pool family: the pooling ops.
// Kernels: ops/pool/pool.cuh; CPU twins: ops/pool/pool_cpu.cpp.
#include "ops/pool/family.h"

namespace gk::families {

OpFamily pool_family() {
  return {.name = "pool",
          .tables = {pool_ops()},
          .kernels = pool_kernels()};
}

}  // namespace gk::families
