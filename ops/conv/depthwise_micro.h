// The depthwise conv's column block on the CPU, chosen at run time by the CPU's
// ISA (backends/cpu/cpu_isa.h): a run of output columns keeps its sums in
// registers across all taps of the row. Taps fold in (kd, kh, kw) order in blocks
// of GK_GEMM_KBLOCK tap indices (a 7x7 kernel: 32 + 17), each block from zero and
// added in order to the total, as gk_conv_depthwise does on CUDA.
#pragma once

#include "ops/common/gemm.cuh"

#include <cstdint>
#include <type_traits>

namespace gk::cpu_conv {

constexpr int64_t kMaxDepthwiseRows = 64;

// The input rows one output row reads, each a zero-padded segment, with their
// weight rows and the tap index of each row's first tap.
template <typename Acc, typename T>
struct DepthwiseRows {
  const Acc* rows[kMaxDepthwiseRows];
  const T* wrows[kMaxDepthwiseRows];
  int64_t taps[kMaxDepthwiseRows];
  int nrows = 0;
  int64_t kw_n = 0, dil = 0;
};

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
      const Acc* src = d.rows[r] + ow + kw * d.dil;
      for (int j = 0; j < NC; ++j) s[j] = gk_madd(src[j], wv, s[j]);
    }
  for (int j = 0; j < NC; ++j) out[j] = tot[j] + s[j];
}

// run[v - 1] computes v * narrow columns (v = 1..4; 4 * narrow = wide). A row's
// remainder after its wide calls takes one call of just enough vectors: one
// vector is a single FMA chain per tap, latency-bound, and MobileNetV2's 56- and
// 28-wide rows spent 9% of the model there.
template <typename Acc, typename T>
struct DepthwiseKernel {
  int wide = 0, narrow = 0;
  void (*run[4])(const DepthwiseRows<Acc, T>& d, int64_t ow, Acc* out) = {};
};

DepthwiseKernel<float, float> depthwise_kernel_f32();

template <typename Acc, typename T>
inline DepthwiseKernel<Acc, T> depthwise_kernel() {
  if constexpr (std::is_same_v<Acc, float> && std::is_same_v<T, float>) return depthwise_kernel_f32();
  else
    return {64, 16,
            {&depthwise_columns<16, Acc, T>, &depthwise_columns<32, Acc, T>, &depthwise_columns<48, Acc, T>,
             &depthwise_columns<64, Acc, T>}};
}

}  // namespace gk::cpu_conv
