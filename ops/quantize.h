// Shared by the quantization launchers (ops/quantize.cpp, ops/qlinear.cpp).
#pragma once

#include "backends/dtype.h"

namespace gk {

// The kernel type name of a quantized or float element type: kernel_type_name's
// for computable types, the Cast family's storage structs (ops/kernels/cast.cuh)
// for float8/e8m0 and the packed 4-/2-bit types; nullptr otherwise.
const char* quant_type_name(DType t);

}  // namespace gk
