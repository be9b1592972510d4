// The signal family: the window functions and MelWeightMatrix.
// Kernels: ops/signal/signal.cuh; CPU twins: ops/signal/signal_cpu.cpp.
#include "ops/core/family.h"

GK_FAMILY(signal, signal_ops)
