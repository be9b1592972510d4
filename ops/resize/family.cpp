// The resize family: Resize and Upsample.
// Kernels: ops/resize/resize.cuh; CPU twins: ops/resize/resize_cpu.cpp.
#include "ops/core/family.h"

GK_FAMILY(resize, resize_ops)
