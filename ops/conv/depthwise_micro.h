// The depthwise conv's column block on the CPU, chosen at run time by the CPU's
// ISA (backends/cpu/cpu_isa.h): a run of output columns keeps its sums in
// registers across all taps of the row. Taps fold in (kd, kh, kw) order in blocks
// of GK_GEMM_KBLOCK tap indices (a 7x7 kernel: 32 + 17), each block from zero and
// added in order to the total, as gk_conv_depthwise does on CUDA.
#pragma once

#include "ops/common/gemm.cuh"
#include "ops/conv/depthwise_micro_abi.h"

#include <cstdint>
#include <type_traits>

namespace gk::cpu_conv {

// The row, plane and kernel types and the dispatchers live in
// depthwise_micro_abi.h, once for every ISA variant (the reason is in
// ops/common/gemm_micro_abi.h).
using ::gk::cpu_conv::DeinterleaveFn;
using ::gk::cpu_conv::DepthwiseChannels;
using ::gk::cpu_conv::DepthwiseChannelsFn;
using ::gk::cpu_conv::DepthwiseKernel;
using ::gk::cpu_conv::DepthwisePlane;
using ::gk::cpu_conv::DepthwisePlaneKernel;
using ::gk::cpu_conv::DepthwiseRows;
using ::gk::cpu_conv::deinterleave_f32;
using ::gk::cpu_conv::depthwise_channels_f32;
using ::gk::cpu_conv::depthwise_kernel_f32;
using ::gk::cpu_conv::depthwise_plane_f32;
using ::gk::cpu_conv::kDepthwiseLanes;
using ::gk::cpu_conv::kMaxDepthwiseRows;

// The input row segment tap (r, kw) reads for output column `ow` (DepthwiseRows).
template <typename Acc, typename T>
inline const Acc* tap_source(const DepthwiseRows<Acc, T>& d, int r, int64_t kw, int64_t ow) {
  const int64_t q = kw * d.dil;
  if (d.stride == 1) return d.rows[r] + ow + q;
  return ((q & 1) ? d.odd[r] : d.rows[r]) + ow + (q >> 1);
}

// The portable stride-2 split (DeinterleaveFn).
inline void deinterleave_portable(const float* src, int64_t pairs, float* even, float* odd) {
  for (int64_t t = 0; t < pairs; ++t) even[t] = src[2 * t], odd[t] = src[2 * t + 1];
}

// out[j] for NC columns from segment column `ow` on.
template <int NC, typename Acc, typename T>
void depthwise_columns(const DepthwiseRows<Acc, T>& d, int64_t ow, Acc* out) {
  Acc tot[NC] = {}, s[NC] = {};
  int64_t block = 0;
  for (int r = 0; r < d.nrows; ++r)
    for (int64_t kw = 0; kw < d.kw_n; ++kw) {
      const int64_t b = (d.taps[r] + kw) / GK_GEMM_KBLOCK;
      if (b != block) {
        for (int j = 0; j < NC; ++j) tot[j] = tot[j] + s[j], s[j] = Acc(0);
        block = b;
      }
      const Acc wv = static_cast<Acc>(d.wrows[r][kw]);
      const Acc* src = tap_source(d, r, kw, ow);
      for (int j = 0; j < NC; ++j) s[j] = gk_madd(src[j], wv, s[j]);
    }
  for (int j = 0; j < NC; ++j) out[j] = tot[j] + s[j];
}

// The portable form, one pixel at a time.
inline void depthwise_channels_portable(const DepthwiseChannels& d) {
  constexpr int L = kDepthwiseLanes;
  for (int64_t oh = 0; oh < d.oh_n; ++oh)
    for (int64_t ow = 0; ow < d.ow_n; ++ow) {
      float tot[L] = {}, s[L] = {};
      int64_t block = 0;
      for (int64_t kh = 0; kh < d.kh; ++kh)
        for (int64_t kw = 0; kw < d.kw; ++kw) {
          const int64_t tap = kh * d.kw + kw;
          if (tap / GK_GEMM_KBLOCK != block) {
            for (int c = 0; c < L; ++c) tot[c] = tot[c] + s[c], s[c] = 0.0f;
            block = tap / GK_GEMM_KBLOCK;
          }
          const float* xp = d.x + ((oh * d.s_h + kh * d.dil_h) * d.wp + ow * d.s_w + kw * d.dil_w) * L;
          for (int c = 0; c < L; ++c) s[c] = gk_madd(xp[c], d.w[tap * L + c], s[c]);
        }
      for (int c = 0; c < L; ++c) d.y[(oh * d.ow_n + ow) * L + c] = tot[c] + s[c];
    }
}

template <typename Acc, typename T>
inline DepthwiseKernel<Acc, T> depthwise_kernel() {
  if constexpr (std::is_same_v<Acc, float> && std::is_same_v<T, float>) return depthwise_kernel_f32();
  else
    return {64, 16,
            {&depthwise_columns<16, Acc, T>, &depthwise_columns<32, Acc, T>, &depthwise_columns<48, Acc, T>,
             &depthwise_columns<64, Acc, T>}};
}

}  // namespace gk::cpu_conv
