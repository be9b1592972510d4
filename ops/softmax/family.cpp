// The softmax family: Softmax, LogSoftmax and Hardmax.
// Kernels: ops/softmax/softmax.cuh; CPU twins: ops/softmax/softmax_cpu.cpp.
#include "ops/core/family.h"

GK_FAMILY(softmax, softmax_ops)
