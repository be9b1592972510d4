// The dft family: DFT and STFT.
// Kernels: ops/dft/dft.cuh; CPU twins: ops/dft/dft_cpu.cpp.
#include "ops/core/family.h"

GK_FAMILY(dft, dft_ops)
