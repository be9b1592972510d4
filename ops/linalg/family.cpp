// The linalg family: Det.
// Kernels: ops/linalg/linalg.cuh; CPU twins: ops/linalg/linalg_cpu.cpp.
#include "ops/linalg/family.h"

namespace gk::families {

OpFamily linalg_family() {
  return {.name = "linalg",
          .tables = {det_ops()},
          .kernels = linalg_kernels()};
}

}  // namespace gk::families
