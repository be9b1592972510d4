// The vector column blocks of ops/conv/depthwise_micro.h for each x86 ISA,
// compiled under `#pragma GCC target` so a portable build has them too.
#include "ops/conv/depthwise_micro.h"

#include "backends/cpu/cpu_isa.h"

#include <type_traits>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace gk::cpu_conv {

#define GK_PER_ISA_BODY "ops/conv/depthwise_vec.inc"
#include "ops/common/per_isa.inc"
#undef GK_PER_ISA_BODY

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

DeinterleaveFn deinterleave_f32() {
  switch (active_cpu_isa()) {
#if defined(__x86_64__)
    case CpuIsa::kAvx512: return &avx512::deinterleave;
    case CpuIsa::kAvx2Fma: return &avx2::deinterleave;
#endif
    default: return &deinterleave_portable;
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

DepthwisePlaneKernel depthwise_plane_f32() {
  switch (active_cpu_isa()) {
#if defined(__x86_64__)
    case CpuIsa::kAvx512: return {16, &avx512::plane};
    case CpuIsa::kAvx2Fma: return {8, &avx2::plane};
#endif
    default: return {};
  }
}

}  // namespace gk::cpu_conv
