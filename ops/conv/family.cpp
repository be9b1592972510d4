// The conv family: Conv and ConvTranspose.
// Kernels: ops/conv/conv.cuh; CPU twins: ops/conv/conv_cpu.cpp.
#include "ops/conv/family.h"

namespace gk::families {

OpFamily conv_family() {
  return {.name = "conv",
          .tables = {conv_ops(), conv_transpose_ops()},
          .kernels = conv_kernels()};
}

}  // namespace gk::families
