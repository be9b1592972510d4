// The elementwise family: the broadcasting binary ops and the variadic ones (Sum, Max, Mean, ...).
// Kernels: ops/elementwise/elementwise.cuh; CPU twins: ops/elementwise/elementwise_cpu.cpp.
#include "ops/elementwise/family.h"

namespace gk::families {

OpFamily elementwise_family() {
  return {.name = "elementwise",
          .tables = {elementwise_ops(), variadic_ops()},
          .kernels = elementwise_kernels()};
}

}  // namespace gk::families
