// The softmax family: Softmax, LogSoftmax and Hardmax.
// Kernels: ops/softmax/softmax.cuh; CPU twins: ops/softmax/softmax_cpu.cpp.
#include "ops/softmax/family.h"

namespace gk::families {

OpFamily softmax_family() {
  return {.name = "softmax",
          .tables = {softmax_ops()},
          .kernels = softmax_kernels()};
}

}  // namespace gk::families
