// CPU instantiations of ops/data_movement/data_movement.cuh.
#include "ops/common/isa_variant.h"

GK_ISA_BEGIN
#include "ops/data_movement/data_movement.cuh"


// CPU twin of gk_dm_strided: the worker's first index is decoded once, then the
// inner dim is copied in runs and the outer dims step like an odometer (the CUDA
// kernel's divisions per element and dim took 70 us for each of BERT-tiny's
// 16K-element head transposes).
template <typename W>
void gk_dm_strided(const W* GK_RESTRICT src, W* GK_RESTRICT dst, gk_index_map map, int64_t n) {
  int64_t i = gk_part_begin(n);
  const int64_t end = gk_part_end(n);
  if (i >= end || map.rank == 0) {
    for (; i < end; ++i) dst[i] = src[0];
    return;
  }
  const int r = map.rank - 1;
  int64_t idx[GK_MAX_RANK], off = 0, rest = i;
  for (int d = r; d >= 0; --d) {
    idx[d] = rest % map.dims[d];
    rest /= map.dims[d];
    off += idx[d] * map.strides[d];
  }
  const int64_t inner = map.dims[r], step = map.strides[r];
  while (i < end) {
    const int64_t run = std::min(end - i, inner - idx[r]);
    const W* s = src + off;
    W* o = dst + i;
    if (step == 1)
      for (int64_t j = 0; j < run; ++j) o[j] = s[j];
    else
      for (int64_t j = 0; j < run; ++j) o[j] = s[j * step];
    i += run;
    off += run * step;
    idx[r] += run;
    if (idx[r] < inner) break;  // only at the range's end
    off -= inner * step;
    idx[r] = 0;
    for (int d = r - 1; d >= 0; --d) {
      off += map.strides[d];
      if (++idx[d] < map.dims[d]) break;
      off -= map.dims[d] * map.strides[d];
      idx[d] = 0;
    }
  }
}

// CPU twin of gk_dm_pad: per output row, the outer dims are mapped once (the
// CUDA kernel divides per element and dim: 2 ms for torchvision's 3x320x320 image
// pad), then the row's left border, interior run and right border are written.
template <typename W>
void gk_dm_pad(const W* GK_RESTRICT src, W* GK_RESTRICT dst, gk_pad_map map, uint64_t value_bits, int64_t n) {
  int64_t i = gk_part_begin(n);
  const int64_t end = gk_part_end(n);
  const W value = (W)value_bits;
  if (map.rank == 0) {
    for (; i < end; ++i) dst[i] = src[0];
    return;
  }
  const int last = map.rank - 1;
  const int64_t out_w = map.out_dims[last], in_w = map.in_dims[last], begin = map.begin[last];
  while (i < end) {
    const int64_t row = i / out_w, j0 = i - row * out_w, j1 = std::min(out_w, j0 + (end - i));
    const gk_pad_source s = gk_dm_pad_source(map, row, last - 1);
    W* out = dst + row * out_w;
    if (!s.inside || in_w == 0) {
      for (int64_t j = j0; j < j1; ++j) out[j] = value;  // in_w == 0 pads only in constant mode
    } else {
      const W* in = src + s.offset;
      const int64_t lo = std::clamp(begin, j0, j1), hi = std::clamp(begin + in_w, lo, j1);
      auto border = [&](int64_t a, int64_t b) {
        if (map.mode == 0)
          for (int64_t j = a; j < b; ++j) out[j] = value;
        else
          for (int64_t j = a; j < b; ++j) out[j] = in[gk_dm_pad_coord(j - begin, in_w, map.mode)];
      };
      border(j0, lo);
      for (int64_t j = lo; j < hi; ++j) out[j] = in[j - begin];
      border(hi, j1);
    }
    i += j1 - j0;
  }
}

namespace {

#define GK_DM_WIDTH(name)                         \
  GK_CPU_KERNEL(kRange, name<uint8_t>),           \
      GK_CPU_KERNEL(kRange, name<uint16_t>),      \
      GK_CPU_KERNEL(kRange, name<uint32_t>),      \
      GK_CPU_KERNEL(kRange, name<uint64_t>)

#define GK_DM_NONZERO(T)                                  \
  GK_CPU_KERNEL(kRange, gk_dm_nonzero_count<T>),          \
      GK_CPU_KERNEL(kRange, gk_dm_nonzero_write<T>)

const ::gk::CpuKernelEntry kDataMovementKernels[] = {
    GK_DM_WIDTH(gk_dm_copy),
    GK_DM_WIDTH(gk_dm_fill),
    GK_CPU_KERNEL(kRange, gk_dm_write_bytes),
    GK_DM_WIDTH(gk_dm_copy_rows),
    GK_DM_WIDTH(gk_dm_strided),
    GK_DM_WIDTH(gk_dm_pad),
    GK_DM_WIDTH(gk_dm_trilu),
    GK_DM_WIDTH(gk_dm_reverse_sequence),
    GK_DM_WIDTH(gk_dm_eye),
    GK_CPU_KERNEL(kRange, gk_dm_range_float<float>),
    GK_CPU_KERNEL(kRange, gk_dm_range_float<double>),
    GK_CPU_KERNEL(kRange, gk_dm_range_float<gk_half>),
    GK_CPU_KERNEL(kRange, gk_dm_range_float<gk_bf16>),
    GK_CPU_KERNEL(kRange, gk_dm_range_int<int16_t>),
    GK_CPU_KERNEL(kRange, gk_dm_range_int<int32_t>),
    GK_CPU_KERNEL(kRange, gk_dm_range_int<int64_t>),
    GK_CPU_KERNEL(kRange, gk_dm_exclusive_scan),
    GK_DM_NONZERO(float),
    GK_DM_NONZERO(double),
    GK_DM_NONZERO(gk_half),
    GK_DM_NONZERO(gk_bf16),
    GK_DM_NONZERO(int8_t),
    GK_DM_NONZERO(int16_t),
    GK_DM_NONZERO(int32_t),
    GK_DM_NONZERO(int64_t),
    GK_DM_NONZERO(uint8_t),
    GK_DM_NONZERO(uint16_t),
    GK_DM_NONZERO(uint32_t),
    GK_DM_NONZERO(uint64_t),
    GK_DM_NONZERO(bool),
};

#undef GK_DM_WIDTH
#undef GK_DM_NONZERO

}  // namespace
GK_ISA_END

GK_ISA_FAMILY(data_movement, kDataMovementKernels)
