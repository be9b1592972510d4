// The cast family: Cast and CastLike.
// Kernels: ops/cast/cast.cuh; CPU twins: ops/cast/cast_cpu.cpp.
#include "ops/core/family.h"

GK_FAMILY(cast, cast_ops)
