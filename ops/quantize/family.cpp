// The quantize family: the quantization ops and the QLinear* ops.
// Kernels: ops/quantize/quantize.cuh; CPU twins: ops/quantize/quantize_cpu.cpp.
#include "ops/core/family.h"

GK_FAMILY(quantize, quantize_ops, qlinear_ops)
