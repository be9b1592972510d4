// Gather / scatter family: Gather, GatherElements, GatherND, ScatterElements (and
// the deprecated Scatter), ScatterND, OneHot.
//
// Gathers move bytes (templates over the element width W); scatters with a
// reduction compute in the element type T. Indices are I (int32_t or int64_t).
// An index outside [-dim, dim) is clamped and raises the run's flag (OutOfRange on
// the host), so no access leaves the tensor.
//
// Scatter with a reduction must combine duplicate indices in order, so those
// kernels give each thread every update that can land on one output position
// and loop over them serially: along the axis for ScatterElements, over the index
// tuples for ScatterND. No atomics, and the result is deterministic.
#include "backends/kernel_prelude.cuh"
#include "ops/common/indexing.cuh"
#include "ops/common/wrap_arith.cuh"

template <typename I>
static GK_FN int64_t gk_gs_norm(I raw, int64_t dim, int32_t* flag) {
  int64_t v = (int64_t)raw;
  if (v < 0) v += dim;
  if (v < 0 || v >= dim) {
    gk_raise(flag, 1);
    v = v < 0 ? 0 : dim - 1;
  }
  return v;
}

// data viewed as [outer, axis_dim, inner], indices flat (n_idx); out [outer, n_idx, inner].
// The CPU twin (ops/gather_scatter/gather_scatter_cpu.cpp) steps (outer, index)
// like an odometer and copies each inner run.
#ifdef __CUDACC_RTC__
template <typename W, typename I>
GK_KERNEL void gk_gs_gather(const W* GK_RESTRICT data, const I* GK_RESTRICT idx, W* GK_RESTRICT out,
                            int64_t axis_dim, int64_t inner, int64_t n_idx, int32_t* flag, int64_t n) {
  GK_KERNEL_LOOP(i, n) {
    int64_t t = i / inner, k = i - t * inner;
    int64_t o = t / n_idx, j = t - o * n_idx;
    int64_t v = gk_gs_norm(idx[j], axis_dim, flag);
    out[i] = data[(o * axis_dim + v) * inner + k];
  }
}
#endif

// map: the indices' dims with the data's strides, 0 on the axis.
template <typename W, typename I>
GK_KERNEL void gk_gs_gather_elements(const W* GK_RESTRICT data, const I* GK_RESTRICT idx, W* GK_RESTRICT out,
                                     gk_index_map map, int64_t axis_stride, int64_t axis_dim, int32_t* flag,
                                     int64_t n) {
  GK_KERNEL_LOOP(i, n) {
    int64_t v = gk_gs_norm(idx[i], axis_dim, flag);
    out[i] = data[gk_offset(map, i) + v * axis_stride];
  }
}

// Offset of index tuple t (k = im.rank components) into the indexed dims.
template <typename I>
static GK_FN int64_t gk_gs_tuple_offset(const I* idx, int64_t t, const gk_index_map& im, int32_t* flag) {
  int64_t off = 0;
  for (int32_t d = 0; d < im.rank; ++d) off += gk_gs_norm(idx[t * im.rank + d], im.dims[d], flag) * im.strides[d];
  return off;
}

// out[t, s] = data[batch(t) * batch_stride + tuple_offset(t) + s] for `slice`-long slices.
template <typename W, typename I>
GK_KERNEL void gk_gs_gather_nd(const W* GK_RESTRICT data, const I* GK_RESTRICT idx, W* GK_RESTRICT out,
                               gk_index_map im, int64_t tuples_per_batch, int64_t batch_stride, int64_t slice,
                               int32_t* flag, int64_t n) {
  GK_KERNEL_LOOP(i, n) {
    int64_t t = i / slice, s = i - t * slice;
    int64_t b = t / tuples_per_batch;
    out[i] = data[b * batch_stride + gk_gs_tuple_offset(idx, t, im, flag) + s];
  }
}

// Reductions: 0 none, 1 add, 2 mul, 3 max, 4 min; f16/bf16 compute in f32, integers wrap.
template <int R, typename T>
static GK_FN T gk_gs_combine(T old, T upd) {
  typedef typename gk_acc<T>::type A;
  if (R == 1) return (T)gk_wrap_add((A)old, (A)upd);
  if (R == 2) return (T)gk_wrap_mul((A)old, (A)upd);
  if (R == 3) return (A)upd > (A)old ? upd : old;
  if (R == 4) return (A)upd < (A)old ? upd : old;
  return upd;
}

// out already holds data. Thread p owns one position off the axis: upd_map/out_map
// (the updates' dims without the axis, with the updates' / output's strides)
// place it, then it walks the updates' axis in order.
template <typename T, typename I, int R>
GK_KERNEL void gk_gs_scatter_elements(T* out, const I* GK_RESTRICT idx, const T* GK_RESTRICT upd,
                                      gk_index_map upd_map, gk_index_map out_map, int64_t upd_axis_stride,
                                      int64_t upd_axis_len, int64_t out_axis_stride, int64_t out_axis_dim,
                                      int32_t* flag, int64_t m) {
  GK_KERNEL_LOOP(p, m) {
    int64_t ub = gk_offset(upd_map, p), ob = gk_offset(out_map, p);
    for (int64_t j = 0; j < upd_axis_len; ++j) {
      int64_t u = ub + j * upd_axis_stride;
      int64_t v = gk_gs_norm(idx[u], out_axis_dim, flag);
      T& dst = out[ob + v * out_axis_stride];
      dst = gk_gs_combine<R>(dst, upd[u]);
    }
  }
}

// ScatterND without a reduction: every (tuple, slice element) in parallel (the
// spec leaves duplicate indices unordered).
template <typename W, typename I>
GK_KERNEL void gk_gs_scatter_nd(W* out, const I* GK_RESTRICT idx, const W* GK_RESTRICT upd, gk_index_map im,
                                int64_t slice, int32_t* flag, int64_t n) {
  GK_KERNEL_LOOP(i, n) {
    int64_t t = i / slice, s = i - t * slice;
    out[gk_gs_tuple_offset(idx, t, im, flag) + s] = upd[i];
  }
}

// ScatterND with a reduction: thread s owns slice element s across all tuples.
template <typename T, typename I, int R>
GK_KERNEL void gk_gs_scatter_nd_reduce(T* out, const I* GK_RESTRICT idx, const T* GK_RESTRICT upd,
                                       gk_index_map im, int64_t tuples, int32_t* flag, int64_t slice) {
  GK_KERNEL_LOOP(s, slice) {
    for (int64_t t = 0; t < tuples; ++t) {
      T& dst = out[gk_gs_tuple_offset(idx, t, im, flag) + s];
      dst = gk_gs_combine<R>(dst, upd[t * slice + s]);
    }
  }
}

// OneHot indices may be any numeric type; a float index truncates toward zero and
// NaN or a huge value lands outside [-depth, depth) (all off_value, per the spec).
template <typename I>
static GK_FN int64_t gk_gs_to_index(I raw) {
  if constexpr (gk_is_float_t<I>::value) {
    double v = (double)(typename gk_acc<I>::type)raw;
    if (!(v == v) || v > 4.0e18 || v < -4.0e18) return -(int64_t)4000000000000000000LL;
    return (int64_t)v;
  } else {
    return (int64_t)raw;
  }
}

// out viewed as [outer, depth, inner]; values = [off, on] on the device.
template <typename W, typename I>
GK_KERNEL void gk_gs_one_hot(const I* GK_RESTRICT idx, const W* GK_RESTRICT values, W* GK_RESTRICT out,
                             int64_t depth, int64_t inner, int64_t n) {
  const W off = values[0], on = values[1];
  GK_KERNEL_LOOP(i, n) {
    int64_t t = i / inner, k = i - t * inner;
    int64_t o = t / depth, d = t - o * depth;
    int64_t v = gk_gs_to_index(idx[o * inner + k]);
    if (v < 0) v += depth;
    out[i] = v == d ? on : off;
  }
}
