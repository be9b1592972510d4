// The unary family: the unary math ops and the activations.
// Kernels: ops/unary/unary.cuh; CPU twins: ops/unary/unary_cpu.cpp.
#include "ops/unary/family.h"

namespace gk::families {

OpFamily unary_family() {
  return {.name = "unary",
          .tables = {unary_ops(), activation_ops()},
          .kernels = unary_kernels()};
}

}  // namespace gk::families
