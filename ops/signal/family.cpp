// The signal family: the window functions and MelWeightMatrix.
// Kernels: ops/signal/signal.cuh; CPU twins: ops/signal/signal_cpu.cpp.
#include "ops/signal/family.h"

namespace gk::families {

OpFamily signal_family() {
  return {.name = "signal",
          .tables = {signal_ops()},
          .kernels = signal_kernels()};
}

}  // namespace gk::families
