// The quantize family: the quantization ops and the QLinear* ops.
// Kernels: ops/quantize/quantize.cuh; CPU twins: ops/quantize/quantize_cpu.cpp.
#include "ops/quantize/family.h"

namespace gk::families {

OpFamily quantize_family() {
  return {.name = "quantize",
          .tables = {quantize_ops(), qlinear_ops()},
          .kernels = quantize_kernels()};
}

}  // namespace gk::families
