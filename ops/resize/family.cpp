// The resize family: Resize and Upsample.
// Kernels: ops/resize/resize.cuh; CPU twins: ops/resize/resize_cpu.cpp.
#include "ops/resize/family.h"

namespace gk::families {

OpFamily resize_family() {
  return {.name = "resize",
          .tables = {resize_ops()},
          .kernels = resize_kernels()};
}

}  // namespace gk::families
