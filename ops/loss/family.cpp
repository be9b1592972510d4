// The loss family: the losses.
// Kernels: ops/loss/loss.cuh; CPU twins: ops/loss/loss_cpu.cpp.
#include "ops/core/family.h"

GK_FAMILY(loss, loss_ops)
