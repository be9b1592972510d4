// Data movement: copies, fills, strided gathers (Transpose, Slice, Expand, Tile,
// DepthToSpace as index maps), row blocks (Concat, Split), Pad, Trilu,
// ReverseSequence, EyeLike, Range and NonZero.
//
// Pure movement kernels are templates over the element *width* (uint8_t..uint64_t),
// not the element type: bytes move the same whatever they mean, so one
// instantiation serves every dtype of that size (bool and float8 included) and the
// host widens rows to 8-byte words where alignment allows.
#include "backends/kernel_prelude.cuh"
#include "ops/common/indexing.cuh"

template <typename W>
GK_KERNEL void gk_dm_copy(const W* GK_RESTRICT src, W* GK_RESTRICT dst, int64_t n) {
  GK_KERNEL_LOOP(i, n) { dst[i] = src[i]; }
}

// The low bytes of `bits` are the element's pattern (little-endian on both backends).
template <typename W>
GK_KERNEL void gk_dm_fill(W* dst, uint64_t bits, int64_t n) {
  const W v = (W)bits;
  GK_KERNEL_LOOP(i, n) { dst[i] = v; }
}

// Small host-known values written from the launch parameters, so the write is
// ordered on the stream (and captured by CUDA Graphs) like any kernel.
struct gk_bytes64 {
  uint8_t b[64];
};
GK_KERNEL void gk_dm_write_bytes(uint8_t* dst, gk_bytes64 data, int64_t n) {
  GK_KERNEL_LOOP(i, n) { dst[i] = data.b[i]; }
}

// rows x row_len block: dst[r * dst_stride + c] = src[r * src_stride + c].
template <typename W>
GK_KERNEL void gk_dm_copy_rows(const W* GK_RESTRICT src, W* GK_RESTRICT dst, int64_t row_len,
                               int64_t src_stride, int64_t dst_stride, int64_t n) {
  GK_KERNEL_LOOP(i, n) {
    int64_t r = i / row_len, c = i - r * row_len;
    dst[r * dst_stride + c] = src[r * src_stride + c];
  }
}

// out[i] = src[offset(map, i)]: any permutation, step, broadcast or tile view.
// The CPU twin (ops/data_movement/data_movement_cpu.cpp) walks an odometer.
#ifdef __CUDACC_RTC__
template <typename W>
GK_KERNEL void gk_dm_strided(const W* GK_RESTRICT src, W* GK_RESTRICT dst, gk_index_map map, int64_t n) {
  GK_KERNEL_LOOP(i, n) { dst[i] = src[gk_offset(map, i)]; }
}
#endif

// Pad: mode 0 constant, 1 reflect, 2 edge, 3 wrap. begin[d] may be negative (crop).
struct gk_pad_map {
  int32_t rank;
  int32_t mode;
  int64_t out_dims[GK_MAX_RANK];
  int64_t in_dims[GK_MAX_RANK];
  int64_t in_strides[GK_MAX_RANK];
  int64_t begin[GK_MAX_RANK];
};

static GK_FN int64_t gk_dm_pad_coord(int64_t c, int64_t n, int32_t mode) {
  if (c >= 0 && c < n) return c;
  if (mode == 2) return c < 0 ? 0 : n - 1;
  if (mode == 3) {
    int64_t m = c % n;
    return m < 0 ? m + n : m;
  }
  if (n == 1) return 0;  // reflect over one element repeats it (numpy)
  // reflect: periodic with period 2(n-1), mirrored in its second half
  int64_t p = 2 * (n - 1);
  int64_t m = c % p;
  if (m < 0) m += p;
  return m < n ? m : p - m;
}

// Where output element `linear` of dims 0..top (row-major) reads from: the source
// offset of those dims, or inside = false where a constant pad covers it. The CUDA
// kernel maps every dim of an element; the CPU twin maps a row's outer dims once.
struct gk_pad_source {
  int64_t offset;
  bool inside;
};

static GK_FN gk_pad_source gk_dm_pad_source(const gk_pad_map& map, int64_t linear, int32_t top) {
  gk_pad_source s{0, true};
  for (int32_t d = top; d >= 0; --d) {
    const int64_t q = linear / map.out_dims[d];
    int64_t c = linear - q * map.out_dims[d] - map.begin[d];
    linear = q;
    if (c < 0 || c >= map.in_dims[d]) {
      if (map.mode == 0 || map.in_dims[d] == 0) {
        s.inside = false;
        continue;
      }
      c = gk_dm_pad_coord(c, map.in_dims[d], map.mode);
    }
    s.offset += c * map.in_strides[d];
  }
  return s;
}

// The CPU twin (ops/data_movement/data_movement_cpu.cpp) maps each output row
// once and copies its interior as a run.
#ifdef __CUDACC_RTC__
template <typename W>
GK_KERNEL void gk_dm_pad(const W* GK_RESTRICT src, W* GK_RESTRICT dst, gk_pad_map map, uint64_t value_bits,
                         int64_t n) {
  GK_KERNEL_LOOP(i, n) {
    const gk_pad_source s = gk_dm_pad_source(map, i, map.rank - 1);
    dst[i] = s.inside ? src[s.offset] : (W)value_bits;
  }
}
#endif

// Trilu over the last two dims (rows x cols): upper keeps col - row >= k, lower
// keeps col - row <= k. k comes from the device (its optional input) or is 0.
template <typename W>
GK_KERNEL void gk_dm_trilu(const W* GK_RESTRICT src, W* GK_RESTRICT dst, int64_t rows, int64_t cols,
                           const int64_t* k_ptr, int32_t upper, int64_t n) {
  const int64_t k = k_ptr ? k_ptr[0] : 0;
  GK_KERNEL_LOOP(i, n) {
    int64_t q = i / cols, c = i - q * cols;
    int64_t r = q % rows;
    bool keep = upper ? (c - r >= k) : (c - r <= k);
    dst[i] = keep ? src[i] : (W)0;
  }
}

// ReverseSequence on the view [d0, d1, inner] where one of d0/d1 is the batch axis
// and the other the time axis. Lengths beyond the time dim clamp and raise.
template <typename W>
GK_KERNEL void gk_dm_reverse_sequence(const W* GK_RESTRICT src, W* GK_RESTRICT dst, const int64_t* lens,
                                      int64_t d0, int64_t d1, int64_t inner, int32_t batch_axis,
                                      int32_t* flag, int64_t n) {
  const int64_t max_t = batch_axis == 0 ? d1 : d0;
  GK_KERNEL_LOOP(i, n) {
    int64_t k = i % inner, q = i / inner;
    int64_t a1 = q % d1, a0 = q / d1;
    int64_t b = batch_axis == 0 ? a0 : a1;
    int64_t t = batch_axis == 0 ? a1 : a0;
    int64_t len = lens[b];
    if (len < 0 || len > max_t) {
      gk_raise(flag, 1);
      len = len < 0 ? 0 : max_t;
    }
    int64_t st = t < len ? len - 1 - t : t;
    int64_t s0 = batch_axis == 0 ? a0 : st, s1 = batch_axis == 0 ? st : a1;
    dst[i] = src[(s0 * d1 + s1) * inner + k];
  }
}

// EyeLike: ones on the k-th diagonal of a rows x cols matrix.
template <typename W>
GK_KERNEL void gk_dm_eye(W* dst, int64_t cols, int64_t k, uint64_t one_bits, int64_t n) {
  GK_KERNEL_LOOP(i, n) {
    int64_t r = i / cols, c = i - r * cols;
    dst[i] = (c - r == k) ? (W)one_bits : (W)0;
  }
}

// Range: start + i * delta in the accumulator type (f16/bf16 in f32, stash_type 1).
template <typename T>
GK_KERNEL void gk_dm_range_float(T* dst, double start, double delta, int64_t n) {
  typedef typename gk_acc<T>::type A;
  const A s = (A)start, d = (A)delta;
  GK_KERNEL_LOOP(i, n) { dst[i] = (T)(s + (A)i * d); }
}
// Integers in uint64: i * delta may pass int64 (range(INT64_MIN, INT64_MAX, INT64_MAX)
// has 3 values) though start + i * delta, each value, lies in [start, limit).
template <typename T>
GK_KERNEL void gk_dm_range_int(T* dst, int64_t start, int64_t delta, int64_t n) {
  GK_KERNEL_LOOP(i, n) { dst[i] = (T)(int64_t)((uint64_t)start + (uint64_t)i * (uint64_t)delta); }
}

// NonZero in three launches without a block-cooperative scan: per-chunk counts,
// one thread turns them into offsets (chunks are few: the host sizes them), then
// each chunk writes its coordinates. counts has chunks + 1 slots; the last
// receives the total.
template <typename T>
GK_KERNEL void gk_dm_nonzero_count(const T* GK_RESTRICT x, int64_t n, int64_t chunk, int64_t* counts,
                                   int64_t chunks) {
  typedef typename gk_acc<T>::type A;
  GK_KERNEL_LOOP(c, chunks) {
    int64_t begin = c * chunk, end = begin + chunk < n ? begin + chunk : n, count = 0;
    for (int64_t i = begin; i < end; ++i) count += ((A)x[i] != (A)0) ? 1 : 0;
    counts[c] = count;
  }
}

GK_KERNEL void gk_dm_exclusive_scan(int64_t* counts, int64_t chunks) {
  GK_KERNEL_LOOP(t, 1) {
    int64_t sum = 0;
    for (int64_t c = 0; c < chunks; ++c) {
      int64_t v = counts[c];
      counts[c] = sum;
      sum += v;
    }
    counts[chunks] = sum;
  }
}

// out is [rank, total]: out[d * total + pos] = coordinate d of the pos-th nonzero.
// map.dims holds the input dims (strides unused).
template <typename T>
GK_KERNEL void gk_dm_nonzero_write(const T* GK_RESTRICT x, int64_t n, int64_t chunk, const int64_t* offsets,
                                   int64_t chunks, int64_t* out, int64_t total, gk_index_map map) {
  typedef typename gk_acc<T>::type A;
  GK_KERNEL_LOOP(c, chunks) {
    int64_t begin = c * chunk, end = begin + chunk < n ? begin + chunk : n, pos = offsets[c];
    for (int64_t i = begin; i < end; ++i) {
      if ((A)x[i] == (A)0) continue;
      int64_t linear = i;
      for (int32_t d = map.rank - 1; d >= 0; --d) {
        int64_t q = linear / map.dims[d];
        out[d * total + pos] = linear - q * map.dims[d];
        linear = q;
      }
      ++pos;
    }
  }
}
