// The loss family: the losses.
// Kernels: ops/loss/loss.cuh; CPU twins: ops/loss/loss_cpu.cpp.
#include "ops/loss/family.h"

namespace gk::families {

OpFamily loss_family() {
  return {.name = "loss",
          .tables = {loss_ops()},
          .kernels = loss_kernels()};
}

}  // namespace gk::families
