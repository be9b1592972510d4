// CPU side of the resize kernel family: plain GK_KERNEL_LOOP kernels, and a
// row-walking twin of the nearest gather.
// Filtered passes read the input type on the first pass and write it on the last;
// float/double intermediates in between (ops/resize/resize.cpp picks the names).
#include "ops/common/isa_variant.h"

GK_ISA_BEGIN
#include "ops/resize/resize.cuh"


// Output rows (all dims but the innermost) per step: the source row's offset is
// decoded once per row, and a row whose source row is the one just written (an
// upsampled outer axis, e.g. H in a 2x NCHW upsample) is a copy of it. Inside a row
// the innermost table is a plain gather. Measured on the PaddleOCR detector's 2x/4x/8x
// upsamples: the per-element decode of the CUDA kernel (a division per dim) was
// several times the memory traffic.
template <typename T>
void gk_resize_nearest(const T* X, T* Y, const int64_t* table, gk_resize_gather_args a, double extrapolation,
                       int64_t n) {
  const int32_t last = a.rank - 1;
  const int64_t inner = a.rank > 0 ? a.out_dims[last] : 1;
  if (inner == 0) return;
  const int64_t rows = n / inner;
  const int64_t* inner_table = a.rank > 0 && a.table_off[last] >= 0 ? table + a.table_off[last] : nullptr;
  const int64_t inner_stride = a.rank > 0 ? a.in_strides[last] : 0;
  const T fill = static_cast<T>(extrapolation);
  int64_t prev_off = -1;  // source offset of the previous row, -1: none/extrapolated
  const T* prev_row = nullptr;
  GK_KERNEL_LOOP(row, rows) {
    int64_t off;
    const bool extrap = gk_resize_source(a, table, row, last, &off);
    T* y = Y + row * inner;
    if (!extrap && off == prev_off) {
      std::memcpy(y, prev_row, sizeof(T) * inner);
      prev_row = y;
      continue;
    }
    const T* x = X + off;
    if (extrap) {
      for (int64_t j = 0; j < inner; ++j) y[j] = fill;
    } else if (!inner_table && inner_stride == 1) {
      std::memcpy(y, x, sizeof(T) * inner);
    } else if (!inner_table) {
      for (int64_t j = 0; j < inner; ++j) y[j] = x[j * inner_stride];
    } else {
      for (int64_t j = 0; j < inner; ++j) {
        const int64_t s = inner_table[j];
        y[j] = s == GK_RESIZE_EXTRAP ? fill : x[s * inner_stride];
      }
    }
    prev_off = extrap ? -1 : off;
    prev_row = y;
  }
}

namespace {

// A type T whose intermediates are W (W itself is listed once, <W, W, W>).
#define GK_RESIZE_MIXED(T, W)                                                     \
  GK_CPU_KERNEL(kRange, gk_resize_pass<T, W, W>), GK_CPU_KERNEL(kRange, gk_resize_pass<W, T, W>), \
      GK_CPU_KERNEL(kRange, gk_resize_pass<T, T, W>)

const ::gk::CpuKernelEntry kResizeKernels[] = {
    GK_CPU_KERNEL(kRange, gk_resize_index),
    GK_CPU_KERNEL(kRange, gk_resize_weights<float>),
    GK_CPU_KERNEL(kRange, gk_resize_weights<double>),
    GK_CPU_KERNEL(kRange, gk_resize_pass<float, float, float>),
    GK_CPU_KERNEL(kRange, gk_resize_pass<double, double, double>),
    GK_RESIZE_MIXED(gk_half, float),
    GK_RESIZE_MIXED(gk_bf16, float),
    GK_RESIZE_MIXED(uint8_t, double),
    GK_RESIZE_MIXED(int8_t, double),
    GK_RESIZE_MIXED(int32_t, double),
    GK_CPU_KERNEL(kRange, gk_resize_nearest<float>),
    GK_CPU_KERNEL(kRange, gk_resize_nearest<double>),
    GK_CPU_KERNEL(kRange, gk_resize_nearest<gk_half>),
    GK_CPU_KERNEL(kRange, gk_resize_nearest<gk_bf16>),
    GK_CPU_KERNEL(kRange, gk_resize_nearest<int8_t>),
    GK_CPU_KERNEL(kRange, gk_resize_nearest<uint8_t>),
    GK_CPU_KERNEL(kRange, gk_resize_nearest<int16_t>),
    GK_CPU_KERNEL(kRange, gk_resize_nearest<uint16_t>),
    GK_CPU_KERNEL(kRange, gk_resize_nearest<int32_t>),
    GK_CPU_KERNEL(kRange, gk_resize_nearest<uint32_t>),
    GK_CPU_KERNEL(kRange, gk_resize_nearest<int64_t>),
    GK_CPU_KERNEL(kRange, gk_resize_nearest<uint64_t>),
    GK_CPU_KERNEL(kRange, gk_resize_nearest<bool>),
};

#undef GK_RESIZE_MIXED

}  // namespace
GK_ISA_END

GK_ISA_FAMILY(resize, kResizeKernels)
