// Host side of the Cast rules in ops/cast/cast.cuh, for launchers that turn a
// host value (an attribute, an absent bound) into an element of a tensor's type.
#pragma once

#include "backends/dtype.h"

namespace gk {

// Writes v converted to `t` (dtype_storage_bytes(t, 1) bytes) exactly as the Cast
// kernel would convert a double; false for a type kernels do not compute on.
bool encode_scalar(DType t, double v, void* out);

}  // namespace gk
