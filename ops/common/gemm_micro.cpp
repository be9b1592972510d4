// The register blocks of ops/common/gemm_micro.h for each x86 ISA. The vector
// kernels are compiled under `#pragma GCC target`, so they exist in a portable
// build (-DGK_NATIVE=OFF) too and are chosen by cpuid at run time.
#include "ops/common/gemm_micro.h"

#include "backends/cpu/cpu_isa.h"

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace gk::cpu_gemm {

#define GK_PER_ISA_BODY "ops/common/gemm_micro_vec.inc"
#include "ops/common/per_isa.inc"
#undef GK_PER_ISA_BODY

MicroKernel<float> micro_kernel_f32() {
  switch (active_cpu_isa()) {
#if defined(__x86_64__)
    case CpuIsa::kAvx512: return {8, 32, &avx512::micro_vec<float, 8, 2, true>, &avx512::micro_vec<float, 8, 2, false>,
                                &avx512::micro_vec<float, 8, 1, true>, &avx512::micro_vec<float, 8, 1, false>,
                                64, &avx512::micro_row_blocks<float, 4, 4>, &avx512::micro_vec_live<float, 8, 2, true>,
                                &avx512::micro_vec_live<float, 8, 2, false>};
    case CpuIsa::kAvx2Fma: return {6, 16, &avx2::micro_vec<float, 6, 2, true>, &avx2::micro_vec<float, 6, 2, false>,
                                &avx2::micro_vec<float, 6, 1, true>, &avx2::micro_vec<float, 6, 1, false>,
                                32, &avx2::micro_row_blocks<float, 4, 3>, &avx2::micro_vec_live<float, 6, 2, true>,
                                &avx2::micro_vec_live<float, 6, 2, false>};
#endif
    default: return {4, 16, &micro_portable<float, 4, 16, true>, &micro_portable<float, 4, 16>,
                 &micro_portable<float, 4, 8, true>, &micro_portable<float, 4, 8>,
                                16, &micro_portable<float, 1, 16, true>,
                 &micro_portable_live<float, 4, 16, true>, &micro_portable_live<float, 4, 16>};
  }
}

MicroKernel<double> micro_kernel_f64() {
  switch (active_cpu_isa()) {
#if defined(__x86_64__)
    case CpuIsa::kAvx512: return {8, 16, &avx512::micro_vec<double, 8, 2, true>, &avx512::micro_vec<double, 8, 2, false>,
                                &avx512::micro_vec<double, 8, 1, true>, &avx512::micro_vec<double, 8, 1, false>,
                                32, &avx512::micro_row_blocks<double, 4, 4>, &avx512::micro_vec_live<double, 8, 2, true>,
                                &avx512::micro_vec_live<double, 8, 2, false>};
    case CpuIsa::kAvx2Fma: return {6, 8, &avx2::micro_vec<double, 6, 2, true>, &avx2::micro_vec<double, 6, 2, false>,
                                &avx2::micro_vec<double, 6, 1, true>, &avx2::micro_vec<double, 6, 1, false>,
                                16, &avx2::micro_row_blocks<double, 4, 3>, &avx2::micro_vec_live<double, 6, 2, true>,
                                &avx2::micro_vec_live<double, 6, 2, false>};
#endif
    default: return {4, 8, &micro_portable<double, 4, 8, true>, &micro_portable<double, 4, 8>,
                 &micro_portable<double, 4, 4, true>, &micro_portable<double, 4, 4>,
                                8, &micro_portable<double, 1, 8, true>,
                 &micro_portable_live<double, 4, 8, true>, &micro_portable_live<double, 4, 8>};
  }
}

}  // namespace gk::cpu_gemm
