// The elementwise family: the broadcasting binary ops and the variadic ones (Sum, Max, Mean, ...).
// Kernels: ops/elementwise/elementwise.cuh; CPU twins: ops/elementwise/elementwise_cpu.cpp.
#include "ops/core/family.h"

GK_FAMILY(elementwise, elementwise_ops, variadic_ops)
