// Resize / Upsample kernels. Each resized axis gets a small table, computed on the
// device from the axis parameters: for nearest, the source index of every output
// coordinate; for linear/cubic, the first tap and the tap weights. Nearest is then
// one gather over all axes; linear/cubic is one separable pass per resized axis
// (innermost first, the order of the ONNX reference), with float intermediates.
// Coordinates are computed in double, as the ONNX reference does, so nearest
// rounding decisions at ties agree with the test data.
#pragma once
#include "backends/kernel_prelude.cuh"
#include "ops/common/math.cuh"

#define GK_RESIZE_MAX_RANK 8
// Table entry for an output coordinate that tf_crop_and_resize maps outside the
// input: the output takes extrapolation_value.
#define GK_RESIZE_EXTRAP (-9223372036854775807LL - 1)

// coordinate_transformation_mode
#define GK_RC_HALF_PIXEL 0
#define GK_RC_PYTORCH_HALF_PIXEL 1
#define GK_RC_ALIGN_CORNERS 2
#define GK_RC_ASYMMETRIC 3
#define GK_RC_TF_HALF_PIXEL_FOR_NN 4
#define GK_RC_TF_CROP_AND_RESIZE 5
#define GK_RC_HALF_PIXEL_SYMMETRIC 6
// mode
#define GK_RM_NEAREST 0
#define GK_RM_LINEAR 1
#define GK_RM_CUBIC 2
// nearest_mode; SIMPLE is Upsample / Resize-10 (no nearest_mode attribute): floor
// when upsampling an axis, ceil when downsampling it (ONNX Runtime's behaviour).
#define GK_RN_ROUND_PREFER_FLOOR 0
#define GK_RN_ROUND_PREFER_CEIL 1
#define GK_RN_FLOOR 2
#define GK_RN_CEIL 3
#define GK_RN_SIMPLE 4

struct gk_resize_axis {
  int64_t in, out;
  double scale;      // the scale of the coordinate transform
  double out_width;  // scale * in as the reference computes it (fractional for scales)
  double roi_start, roi_end;
  double cubic_a;
  int32_t coord_mode, mode;
  int32_t nearest_mode, taps;  // taps: 2 linear, 4 cubic, the antialias footprint
  int32_t tap0, antialias;     // tap0: first tap relative to the left neighbour
  int32_t exclude_outside, pad_;
};

// x_original of output coordinate x; *outside for tf_crop_and_resize beyond the input.
static GK_FN double gk_resize_coord(const gk_resize_axis& a, int64_t x, bool* outside) {
  const double xr = (double)x, in = (double)a.in;
  *outside = false;
  switch (a.coord_mode) {
    case GK_RC_ALIGN_CORNERS:
      return a.out_width == 1.0 ? 0.0 : xr * (in - 1.0) / (a.out_width - 1.0);
    case GK_RC_ASYMMETRIC:
      return xr / a.scale;
    case GK_RC_TF_HALF_PIXEL_FOR_NN:
      return (xr + 0.5) / a.scale;
    case GK_RC_TF_CROP_AND_RESIZE: {
      double v = a.out_width == 1.0 ? (a.roi_end - a.roi_start) * (in - 1.0) / 2.0
                                    : xr * (a.roi_end - a.roi_start) * (in - 1.0) / (a.out_width - 1.0);
      v += a.roi_start * (in - 1.0);
      *outside = v < 0.0 || v > in - 1.0;
      return v;
    }
    case GK_RC_PYTORCH_HALF_PIXEL:
      return a.out_width == 1.0 ? 0.0 : (xr + 0.5) / a.scale - 0.5;
    case GK_RC_HALF_PIXEL_SYMMETRIC: {
      const double adjustment = (double)a.out / a.out_width;
      const double offset = in / 2.0 * (1.0 - adjustment);
      return offset + (xr + 0.5) / a.scale - 0.5;
    }
    default:
      return (xr + 0.5) / a.scale - 0.5;
  }
}

// The reference's split of x into a left neighbour and ratio in (0, 1]: an integer
// x has ratio 1 and left neighbour x - 1.
static GK_FN double gk_resize_ratio(double x, int64_t* left) {
  const double f = gk_floor(x);
  const double ratio = x == f ? 1.0 : x - f;
  *left = (int64_t)(x - ratio);
  return ratio;
}

static GK_FN double gk_cubic_kernel(double x, double A) {
  x = gk_fabs(x);
  if (x <= 1.0) return ((A + 2.0) * x - (A + 3.0)) * x * x + 1.0;
  if (x < 2.0) return ((A * x - 5.0 * A) * x + 8.0 * A) * x - 4.0 * A;
  return 0.0;
}

static GK_FN int64_t gk_resize_clamp(int64_t i, int64_t n) { return i < 0 ? 0 : (i >= n ? n - 1 : i); }

GK_KERNEL void gk_resize_index(gk_resize_axis a, int64_t* index, int64_t n) {
  GK_KERNEL_LOOP(j, n) {
    bool outside;
    const double x = gk_resize_coord(a, j, &outside);
    if (outside) {
      index[j] = GK_RESIZE_EXTRAP;
      continue;
    }
    int64_t left;
    const double r = gk_resize_ratio(x, &left);
    bool right;
    if (r == 1.0) {
      right = true;
    } else {
      switch (a.nearest_mode) {
        case GK_RN_ROUND_PREFER_CEIL: right = r >= 0.5; break;
        case GK_RN_FLOOR: right = false; break;
        case GK_RN_CEIL: right = true; break;
        case GK_RN_SIMPLE: right = a.scale < 1.0; break;
        default: right = r > 0.5; break;
      }
    }
    index[j] = gk_resize_clamp(left + (right ? 1 : 0), a.in);
  }
}

// Weight of tap t (index left + tap0 + t) for ratio r, before normalisation.
static GK_FN double gk_resize_coeff(const gk_resize_axis& a, int32_t t, double r) {
  const double fs = a.scale < 1.0 ? a.scale : 1.0;  // antialias stretches by 1/scale
  const double d = (double)(a.tap0 + t) - r;         // tap position minus x
  if (a.mode == GK_RM_LINEAR) {
    if (!a.antialias) return t == 0 ? 1.0 - r : r;
    const double c = 1.0 - gk_fabs(d * fs);
    return c < 0.0 ? 0.0 : c;
  }
  return gk_cubic_kernel(a.antialias ? d * fs : d, a.cubic_a);
}

// First tap (unclamped; reads clamp to the edge) and `taps` weights per output
// coordinate. Weights are normalised as the reference does: antialias filters by
// their sum, exclude_outside by the sum of the taps inside the input.
template <typename W>
GK_KERNEL void gk_resize_weights(gk_resize_axis a, int64_t* start, W* weights, int64_t n) {
  GK_KERNEL_LOOP(j, n) {
    bool outside;
    const double x = gk_resize_coord(a, j, &outside);
    W* w = weights + j * a.taps;
    if (outside) {
      start[j] = GK_RESIZE_EXTRAP;
      for (int32_t t = 0; t < a.taps; ++t) w[t] = (W)0;
      continue;
    }
    int64_t left;
    const double r = gk_resize_ratio(x, &left);
    // The reference takes the `taps` nearest indices of the edge-padded input (pad
    // ceil(taps / 2)); far outside the input that window shifts inward.
    const int64_t pad = (a.taps + 1) / 2;
    int64_t s = left + a.tap0;
    if (s < -pad) s = -pad;
    if (s > a.in + pad - a.taps) s = a.in + pad - a.taps;
    start[j] = s;
    double norm = 1.0;
    if (a.antialias || a.exclude_outside) {
      norm = 0.0;
      for (int32_t t = 0; t < a.taps; ++t) {
        const int64_t idx = s + t;
        if (!a.exclude_outside || (idx >= 0 && idx < a.in)) norm += gk_resize_coeff(a, t, r);
      }
      if (norm == 0.0) norm = 1.0;
    }
    for (int32_t t = 0; t < a.taps; ++t) {
      const int64_t idx = s + t;
      const bool drop = a.exclude_outside && (idx < 0 || idx >= a.in);
      w[t] = (W)(drop ? 0.0 : gk_resize_coeff(a, t, r) / norm);
    }
  }
}

struct gk_resize_pass_args {
  int64_t in, out, inner;
  double extrapolation;
  int32_t taps, pad_;
};

// Truncates toward zero and saturates into an integer type, as the ONNX reference
// (its float result cast with astype) and ONNX Runtime do; float types convert. The
// value truncated is the exact one: a sum that rounding leaves just short of an
// integer (13.9999999999 for 14) is nudged over it first, far below any fraction
// the taps of integer inputs can make.
template <typename W>
static GK_FN W gk_resize_nudge(W v) {
  const W mag = v < (W)0 ? -v : v;
  const W nudge = (W)1e-9 + mag * (W)1e-12;
  return v < (W)0 ? v - nudge : v + nudge;
}
template <typename T, typename W>
struct gk_resize_store {
  static GK_FN T cvt(W v) { return (T)v; }
};
#define GK_RESIZE_INT_STORE(T)                                            \
  template <typename W>                                                   \
  struct gk_resize_store<T, W> {                                          \
    static GK_FN T cvt(W v) {                                             \
      v = gk_resize_nudge(v);                                             \
      if (!(v >= (W)gk_limits<T>::lowest())) return gk_limits<T>::lowest(); \
      if (v >= (W)gk_limits<T>::highest()) return gk_limits<T>::highest(); \
      return (T)v;                                                        \
    }                                                                     \
  };
GK_RESIZE_INT_STORE(int8_t)
GK_RESIZE_INT_STORE(uint8_t)
GK_RESIZE_INT_STORE(int32_t)
#undef GK_RESIZE_INT_STORE

// One axis: X viewed as [outer, in, inner], Y as [outer, out, inner].
template <typename Tin, typename Tout, typename W>
GK_KERNEL void gk_resize_pass(const Tin* X, Tout* Y, const int64_t* start, const W* weights,
                              gk_resize_pass_args a, int64_t n) {
  GK_KERNEL_LOOP(i, n) {
    const int64_t q = i / a.inner;
    const int64_t k = i - q * a.inner;
    const int64_t o = q / a.out;
    const int64_t j = q - o * a.out;
    const int64_t s = start[j];
    if (s == GK_RESIZE_EXTRAP) {
      Y[i] = gk_resize_store<Tout, W>::cvt((W)a.extrapolation);
      continue;
    }
    const Tin* x = X + o * a.in * a.inner + k;
    const W* w = weights + j * a.taps;
    W acc = (W)0;
    for (int32_t t = 0; t < a.taps; ++t) acc += w[t] * (W)x[gk_resize_clamp(s + t, a.in) * a.inner];
    Y[i] = gk_resize_store<Tout, W>::cvt(acc);
  }
}

struct gk_resize_gather_args {
  int32_t rank, pad_;
  int64_t out_dims[GK_RESIZE_MAX_RANK];
  int64_t in_strides[GK_RESIZE_MAX_RANK];
  int64_t table_off[GK_RESIZE_MAX_RANK];  // -1: the axis is not resized
};

// The source offset of output position `rem` over dims [0, dims) (row-major
// decode, each resized dim through its table); true when a dim extrapolates.
static GK_FN bool gk_resize_source(const gk_resize_gather_args& a, const int64_t* table, int64_t rem,
                                   int32_t dims, int64_t* off) {
  bool extrap = false;
  *off = 0;
  for (int32_t d = dims - 1; d >= 0; --d) {
    const int64_t q = d > 0 ? rem / a.out_dims[d] : 0;
    int64_t s = rem - q * a.out_dims[d];
    rem = q;
    if (a.table_off[d] >= 0) s = table[a.table_off[d] + s];
    if (s == GK_RESIZE_EXTRAP) {
      extrap = true;
      s = 0;
    }
    *off += s * a.in_strides[d];
  }
  return extrap;
}

// Nearest over every axis at once: a pure gather. The CPU twin (ops/resize/resize_cpu.cpp)
// walks output rows instead.
#ifdef __CUDACC_RTC__
template <typename T>
GK_KERNEL void gk_resize_nearest(const T* X, T* Y, const int64_t* table, gk_resize_gather_args a,
                                 double extrapolation, int64_t n) {
  GK_KERNEL_LOOP(i, n) {
    int64_t off;
    const bool extrap = gk_resize_source(a, table, i, a.rank, &off);
    Y[i] = extrap ? (T)extrapolation : X[off];
  }
}
#endif
