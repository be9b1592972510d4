// The dft family: DFT and STFT.
// Kernels: ops/dft/dft.cuh; CPU twins: ops/dft/dft_cpu.cpp.
#include "ops/dft/family.h"

namespace gk::families {

OpFamily dft_family() {
  return {.name = "dft",
          .tables = {dft_ops()},
          .kernels = dft_kernels()};
}

}  // namespace gk::families
