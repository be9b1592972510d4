// The vector column blocks of ops/conv/depthwise_micro.h for each x86 ISA,
// compiled under `#pragma GCC target` so a portable build has them too.
#include "ops/conv/depthwise_micro.h"

#include "backends/cpu/cpu_isa.h"

#include <type_traits>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace gk::cpu_conv {

#if defined(__x86_64__)
#pragma GCC push_options
#pragma GCC target("avx512f")
namespace avx512 {
#define GK_SIMD_BITS 512
#include "ops/common/simd_vec.inc"
#undef GK_SIMD_BITS
#include "ops/conv/depthwise_vec.inc"
}  // namespace avx512
#pragma GCC pop_options

#pragma GCC push_options
#pragma GCC target("avx2,fma")
namespace avx2 {
#define GK_SIMD_BITS 256
#include "ops/common/simd_vec.inc"
#undef GK_SIMD_BITS
#include "ops/conv/depthwise_vec.inc"
}  // namespace avx2
#pragma GCC pop_options
#endif

DepthwiseKernel<float, float> depthwise_kernel_f32() {
  switch (active_cpu_isa()) {
#if defined(__x86_64__)
    // 4 + 4 accumulating vectors: 64 columns in zmm, 32 in ymm (8 more would spill).
    case CpuIsa::kAvx512:
      return {64, 16, {&avx512::columns<1>, &avx512::columns<2>, &avx512::columns<3>, &avx512::columns<4>}};
    case CpuIsa::kAvx2Fma:
      return {32, 8, {&avx2::columns<1>, &avx2::columns<2>, &avx2::columns<3>, &avx2::columns<4>}};
#endif
    default:
      return {64, 16,
              {&depthwise_columns<16, float, float>, &depthwise_columns<32, float, float>,
               &depthwise_columns<48, float, float>, &depthwise_columns<64, float, float>}};
  }
}

DepthwiseChannelsFn depthwise_channels_f32() {
  switch (active_cpu_isa()) {
#if defined(__x86_64__)
    case CpuIsa::kAvx512: return &avx512::channels;
    case CpuIsa::kAvx2Fma: return &avx2::channels;
#endif
    default: return &depthwise_channels_portable;
  }
}

}  // namespace gk::cpu_conv
