// The types the run-time dispatched depthwise conv blocks (depthwise_micro.h) are
// called through, and their dispatchers: once, outside the per-ISA namespaces, for
// the reason in ops/common/gemm_micro_abi.h. Aggregates only, always
// brace-initialised, no member functions.
#pragma once

#include <cstdint>

namespace gk::cpu_conv {

constexpr int64_t kMaxDepthwiseRows = 64;

// The input rows one output row reads, each a zero-padded segment, with their
// weight rows and the tap index of each row's first tap. Stride 1: output column
// j's tap kw reads rows[r][j + kw * dil]. Stride 2: each row is split into its even
// and odd columns (rows[r][t] = x[2t], odd[r][t] = x[2t + 1]), so the tap at
// column offset q = kw * dil reads (q even ? rows : odd)[r][j + q / 2], still one
// contiguous vector per tap, and the taps fold in the same order.
template <typename Acc, typename T>
struct DepthwiseRows {
  const Acc* rows[kMaxDepthwiseRows];
  const Acc* odd[kMaxDepthwiseRows];
  const T* wrows[kMaxDepthwiseRows];
  int64_t taps[kMaxDepthwiseRows];
  int nrows = 0;
  int64_t kw_n = 0, dil = 0, stride = 1;
};

// even[t] = src[2t], odd[t] = src[2t + 1] for t < pairs: the stride-2 split, two
// loads and two permutes per vector (a scalar split cost more than the taps it
// feeds: docs/perf-notes.md).
using DeinterleaveFn = void (*)(const float* src, int64_t pairs, float* even, float* odd);
DeinterleaveFn deinterleave_f32();

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

// Narrow images (EfficientNet's and MobileNetV3's 7x7 and 14x14 stages: a row is
// one vector with 7 or 14 lanes used) go channels-last instead: 16 channels of one
// image in a zero-padded [hp][wp][16] copy, one vector per output pixel, several
// pixels' FMA chains in flight. Taps fold as depthwise_columns' (blocks of 32 tap
// indices); padded taps add x = 0 as in depthwise_row.
constexpr int kDepthwiseLanes = 16;
struct DepthwiseChannels {
  const float* x;  // [hp][wp][16], zero where the image is padded
  int64_t wp;
  const float* w;  // [kh * kw][16]
  int64_t kh, kw, dil_h, dil_w, s_h, s_w, oh_n, ow_n;
  float* y;  // [oh_n][ow_n][16]
};
using DepthwiseChannelsFn = void (*)(const DepthwiseChannels& d);
DepthwiseChannelsFn depthwise_channels_f32();

// Whole planes, stride 1 or 2 along W (2-D, f32): the input rows a worker's output
// rows read are copied once into a zero-padded plane (at stride 2 split into its
// even and odd columns), and R output rows x NV vectors keep their sums in
// registers across all taps, every tap one unaligned load per vector straight from
// the plane. Copying each output row's input rows into segments (depthwise_row)
// cost more than the taps and kept only 2-4 FMA chains in flight: a 240x28x28 5x5
// depthwise ran at 6 GFLOP/s. Taps fold as depthwise_columns' (blocks of 32 tap
// indices, the first block stored, later ones added to y); padded taps add x = 0.
struct DepthwisePlane {
  const float* even;  // stride 1: the padded plane; stride 2: its even columns
  const float* odd;   // stride 2: its odd columns (padded column 2t + 1)
  int64_t ld;         // row stride of the plane(s)
  const float* w;     // kh * kw taps
  int64_t kh, kw, dil_h, dil_w, s_h, s_w;
  int64_t rows, vecs;  // output rows; vectors per output row
  float* y;            // [rows][ldy] sums, ldy >= vecs * lanes
  int64_t ldy;
};
struct DepthwisePlaneKernel {
  int lanes = 0;
  void (*run)(const DepthwisePlane& d) = nullptr;  // null: no vector ISA, rows take depthwise_row
};
DepthwisePlaneKernel depthwise_plane_f32();

}  // namespace gk::cpu_conv
