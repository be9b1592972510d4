// Spatial sampling kernels: GridSample (N-linear, nearest, N-cubic over up to
// GK_GS_MAX_DIMS spatial dims), AffineGrid (the sampling grid of an affine map),
// Col2Im (column blocks folded back into an image, gathered per output element so
// overlapping blocks need no atomics) and DeformConv (N-linear samples at offset
// kernel taps).
//
// GridSample follows the ONNX reference (onnx/reference/ops/op_grid_sample.py, which
// mirrors PyTorch's GridSampler): the denormalised coordinate is first brought inside
// the padding bounds (border: clamped to [0, d-1]; reflection: reflected about
// [-0.5, d-0.5], or [0, d-1] with align_corners), then each interpolation tap maps
// its integer index through the padding mode again (zeros: 0 outside the image).
#pragma once
#include "backends/kernel_prelude.cuh"
#include "ops/common/indexing.cuh"
#include "ops/common/math.cuh"
#include "ops/common/wrap_arith.cuh"

#define GK_GS_MAX_DIMS 4

struct gk_grid_sample_args {
  int32_t rank;           // spatial dims r (grid's last dim)
  int32_t mode;           // 0 linear, 1 nearest, 2 cubic
  int32_t padding;        // 0 zeros, 1 border, 2 reflection
  int32_t align_corners;  // 0/1
  int64_t channels;
  int64_t out_points;     // product of the output's spatial dims
  int64_t in_points;      // product of X's spatial dims
  int64_t in_dims[GK_GS_MAX_DIMS];  // X's spatial dims, outermost first
};

// Reflects x into [lo, hi] until inside (the reference's _gs_reflect). An empty range
// (one pixel with align_corners) has a single point to land on.
template <typename A>
static GK_FN A gk_gs_reflect(A x, A lo, A hi) {
  const A range = hi - lo;
  if (!(range > (A)0)) return lo;
  if (x < lo) {
    const A dx = lo - x;
    const A k = gk_floor(dx / range);
    const A r = dx - k * range;
    return gk_fmod(k, (A)2) == (A)0 ? lo + r : hi - r;
  }
  if (x > hi) {
    const A dx = x - hi;
    const A k = gk_floor(dx / range);
    const A r = dx - k * range;
    return gk_fmod(k, (A)2) == (A)0 ? hi - r : lo + r;
  }
  return x;
}

// A tap's integer index through the padding mode; -1 means "reads zero".
template <typename A>
static GK_FN int64_t gk_gs_tap(int64_t i, int64_t size, int32_t padding, A lo, A hi) {
  if (i >= 0 && i < size) return i;
  if (padding == 0) return -1;
  if (padding == 2) i = (int64_t)gk_gs_reflect((A)i, lo, hi);  // truncates, as the reference's int()
  return i < 0 ? 0 : (i >= size ? size - 1 : i);
}

// Keys cubic convolution weights with a = -0.75 (PyTorch's and the reference's value)
// for taps at -1, 0, 1, 2 around a point t in [0, 1) past the floor.
template <typename A>
static GK_FN void gk_gs_cubic_weights(A t, A* w) {
  const A a = (A)-0.75;
  const A t1 = t + (A)1, u = (A)1 - t, u1 = (A)2 - t;
  w[0] = ((a * t1 - (A)5 * a) * t1 + (A)8 * a) * t1 - (A)4 * a;
  w[1] = ((a + (A)2) * t - (a + (A)3)) * t * t + (A)1;
  w[2] = ((a + (A)2) * u - (a + (A)3)) * u * u + (A)1;
  w[3] = ((a * u1 - (A)5 * a) * u1 + (A)8 * a) * u1 - (A)4 * a;
}

// One loop step per (n, output point); the channels reuse its taps and weights.
template <typename T, typename G>
GK_KERNEL void gk_grid_sample(const T* GK_RESTRICT X, const G* GK_RESTRICT grid, T* GK_RESTRICT Y,
                              gk_grid_sample_args a, int64_t n) {
  typedef typename gk_acc<T>::type AT;
  typedef typename gk_acc<G>::type AG;
  typedef decltype((AT)0 + (AG)0) A;  // double when either side is double, else float
  GK_KERNEL_LOOP(p, n) {
    const int64_t b = p / a.out_points;
    const int64_t o = p - b * a.out_points;
    int64_t idx[GK_GS_MAX_DIMS][4];
    A w[GK_GS_MAX_DIMS][4];
    const int32_t taps = a.mode == 1 ? 1 : (a.mode == 0 ? 2 : 4);
    for (int32_t d = 0; d < a.rank; ++d) {
      const int64_t size = a.in_dims[d];
      const A g = (A)(AG)grid[p * a.rank + (a.rank - 1 - d)];  // innermost dim first
      A x = a.align_corners ? (g + (A)1) / (A)2 * (A)(size - 1) : ((g + (A)1) * (A)size - (A)1) / (A)2;
      // 2^40 is far past any image; the bound keeps NaN and huge values convertible.
      const A big = (A)1099511627776.0;
      if (!(x > -big)) x = -big;
      if (x > big) x = big;
      const A lo = a.align_corners ? (A)0 : (A)-0.5;
      const A hi = a.align_corners ? (A)(size - 1) : (A)size - (A)0.5;
      if (a.mode == 1) x = gk_rint(x);  // nearest: ties to even
      if (x < lo || x > hi) {
        if (a.padding == 1) x = x < (A)0 ? (A)0 : (x > (A)(size - 1) ? (A)(size - 1) : x);
        else if (a.padding == 2) x = gk_gs_reflect(x, lo, hi);
      }
      if (a.mode == 1) {
        idx[d][0] = gk_gs_tap((int64_t)x, size, a.padding, lo, hi);
        w[d][0] = (A)1;
        continue;
      }
      const A f = gk_floor(x);
      const A t = x - f;
      const int64_t base = (int64_t)f;
      if (a.mode == 0) {
        w[d][0] = (A)1 - t;
        w[d][1] = t;
        idx[d][0] = gk_gs_tap(base, size, a.padding, lo, hi);
        idx[d][1] = gk_gs_tap(base + 1, size, a.padding, lo, hi);
      } else {
        gk_gs_cubic_weights(t, w[d]);
        for (int32_t k = 0; k < 4; ++k) idx[d][k] = gk_gs_tap(base - 1 + k, size, a.padding, lo, hi);
      }
    }
    int32_t combos = 1;
    for (int32_t d = 0; d < a.rank; ++d) combos *= taps;
    for (int64_t c = 0; c < a.channels; ++c) {
      const T* img = X + (b * a.channels + c) * a.in_points;
      A sum = (A)0;
      for (int32_t k = 0; k < combos; ++k) {
        int32_t rest = k;
        int64_t off = 0, stride = 1;
        A weight = (A)1;
        bool inside = true;
        for (int32_t d = a.rank - 1; d >= 0; --d) {  // innermost dim varies fastest
          const int32_t t = rest % taps;
          rest /= taps;
          inside = inside && idx[d][t] >= 0;
          off += idx[d][t] * stride;
          stride *= a.in_dims[d];
          weight *= w[d][t];
        }
        if (!inside) continue;
        sum += weight * (A)(AT)img[off];
      }
      Y[(b * a.channels + c) * a.out_points + o] = (T)sum;
    }
  }
}

// AffineGrid: grid[n, p, j] = theta[n, j, :rank] . base(p) + theta[n, j, rank], where
// base(p) lists the point's normalised coordinates innermost first (x = width).
// dims: the spatial sizes outermost first (H, W) or (D, H, W).
template <typename T>
GK_KERNEL void gk_affine_grid(const T* GK_RESTRICT theta, T* GK_RESTRICT grid, int32_t rank, int32_t align_corners,
                              int64_t d0, int64_t d1, int64_t d2, int64_t points, int64_t n) {
  typedef typename gk_acc<T>::type A;
  GK_KERNEL_LOOP(p, n) {
    const int64_t b = p / points;
    int64_t rest = p - b * points;
    const int64_t dims[3] = {d0, d1, d2};
    A base[3];  // base[0] = innermost (x)
    for (int32_t d = rank - 1; d >= 0; --d) {
      const int64_t s = dims[d];
      const int64_t i = rest % s;
      rest /= s;
      A v;
      if (align_corners) v = s > 1 ? (A)-1 + (A)(2 * i) / (A)(s - 1) : (A)-1;
      else v = (A)-1 + (A)(2 * i + 1) / (A)s;
      base[rank - 1 - d] = v;
    }
    const T* th = theta + b * rank * (rank + 1);
    for (int32_t j = 0; j < rank; ++j) {
      A acc = (A)th[j * (rank + 1) + rank];
      for (int32_t k = 0; k < rank; ++k) acc += (A)th[j * (rank + 1) + k] * base[k];
      grid[p * rank + j] = (T)acc;
    }
  }
}

struct gk_col2im_args {
  int32_t rank;  // spatial dims
  int32_t pad_;
  int64_t image_points, block_points, col_points;
  int64_t image[GK_MAX_RANK];      // output spatial dims
  int64_t block[GK_MAX_RANK];      // block (kernel) dims before dilation
  int64_t col[GK_MAX_RANK];        // blocks along each dim
  int64_t dilation[GK_MAX_RANK];
  int64_t pad_begin[GK_MAX_RANK];
  int64_t stride[GK_MAX_RANK];
};

// Col2Im, gather form: output (nc, pixel) sums input (nc * K + k, block) over the
// kernel offsets k whose block lands on the pixel, in ascending k (the reference's
// accumulation order). Input is [N, C * K, L], output [N, C, image...].
template <typename T>
GK_KERNEL void gk_col2im_gather(const T* GK_RESTRICT X, T* GK_RESTRICT Y, gk_col2im_args a, int64_t n) {
  typedef typename gk_acc<T>::type A;
  GK_KERNEL_LOOP(i, n) {
    const int64_t nc = i / a.image_points;
    int64_t rest = i - nc * a.image_points;
    int64_t pix[GK_MAX_RANK];
    for (int32_t d = a.rank - 1; d >= 0; --d) {
      const int64_t q = rest / a.image[d];
      pix[d] = rest - q * a.image[d];
      rest = q;
    }
    const T* src = X + nc * a.block_points * a.col_points;
    A sum = (A)0;
    for (int64_t k = 0; k < a.block_points; ++k) {
      int64_t kr = k, col = 0, col_stride = 1;
      bool hit = true;
      for (int32_t d = a.rank - 1; d >= 0 && hit; --d) {
        const int64_t q = kr / a.block[d];
        const int64_t kd = kr - q * a.block[d];
        kr = q;
        const int64_t v = pix[d] + a.pad_begin[d] - kd * a.dilation[d];
        const int64_t c = v / a.stride[d];
        hit = v >= 0 && c * a.stride[d] == v && c < a.col[d];
        if (hit) col += c * col_stride;
        col_stride *= a.col[d];
      }
      if (hit) sum = gk_wrap_add(sum, (A)src[k * a.col_points + col]);
    }
    Y[i] = (T)sum;
  }
}

struct gk_deform_conv_args {
  int32_t rank;  // spatial dims, at most GK_GS_MAX_DIMS
  int32_t has_bias, has_mask, pad_;
  int64_t channels, out_channels, group, offset_group;
  int64_t in_points, out_points, kernel_points;
  int64_t in_dims[GK_GS_MAX_DIMS], out_dims[GK_GS_MAX_DIMS], kernel[GK_GS_MAX_DIMS];
  int64_t stride[GK_GS_MAX_DIMS], dilation[GK_GS_MAX_DIMS], pad_begin[GK_GS_MAX_DIMS];
};

// DeformConv, one output element (n, oc, point) per loop step: each kernel tap of
// each input channel in oc's group samples X N-linearly at its window position plus
// the tap's learned offset (taps outside the image read 0, the reference's
// GridSample with zeros padding and align_corners), scaled by the weight and by the
// mask when present. Offsets are (N, offset_group, kernel..., rank, out...), masks
// (N, offset_group, kernel..., out...).
template <typename T>
GK_KERNEL void gk_deform_conv(const T* GK_RESTRICT X, const T* GK_RESTRICT W, const T* GK_RESTRICT offset,
                              const T* GK_RESTRICT B, const T* GK_RESTRICT mask, T* GK_RESTRICT Y,
                              gk_deform_conv_args a, int64_t n) {
  typedef typename gk_acc<T>::type A;
  GK_KERNEL_LOOP(i, n) {
    const int64_t o = i % a.out_points;
    const int64_t t = i / a.out_points;
    const int64_t oc = t % a.out_channels;
    const int64_t b = t / a.out_channels;
    int64_t opos[GK_GS_MAX_DIMS];
    int64_t rest = o;
    for (int32_t d = a.rank - 1; d >= 0; --d) {
      opos[d] = rest % a.out_dims[d];
      rest /= a.out_dims[d];
    }
    const int64_t cpg = a.channels / a.group, ocpg = a.out_channels / a.group;
    const int64_t g = oc / ocpg;
    const int64_t cpog = a.channels / a.offset_group;
    const int32_t corners = 1 << a.rank;
    A acc = (A)0;
    for (int64_t ic = g * cpg; ic < (g + 1) * cpg; ++ic) {
      const int64_t og = ic / cpog;
      const T* img = X + (b * a.channels + ic) * a.in_points;
      const T* wk = W + (oc * cpg + (ic - g * cpg)) * a.kernel_points;
      for (int64_t k = 0; k < a.kernel_points; ++k) {
        const int64_t tap = (b * a.offset_group + og) * a.kernel_points + k;
        A m = a.has_mask ? (A)mask[tap * a.out_points + o] : (A)1;
        A weight = (A)wk[k] * m;
        int64_t lo[GK_GS_MAX_DIMS];
        A frac[GK_GS_MAX_DIMS];
        int64_t kr = k;
        bool finite = true;
        for (int32_t d = a.rank - 1; d >= 0; --d) {
          const int64_t kd = kr % a.kernel[d];
          kr /= a.kernel[d];
          const A off = (A)offset[(tap * a.rank + d) * a.out_points + o];
          const A pos = (A)(opos[d] * a.stride[d] - a.pad_begin[d] + kd * a.dilation[d]) + off;
          // Beyond +-2^40 no tap can be inside; the test also rejects NaN.
          finite = finite && pos > (A)-1099511627776.0 && pos < (A)1099511627776.0;
          const A f = finite ? gk_floor(pos) : (A)0;
          lo[d] = (int64_t)f;
          frac[d] = pos - f;
        }
        if (!finite) continue;
        A sample = (A)0;
        for (int32_t c = 0; c < corners; ++c) {
          int64_t off = 0;
          A w = (A)1;
          bool inside = true;
          for (int32_t d = 0; d < a.rank; ++d) {
            const int32_t hi = (c >> (a.rank - 1 - d)) & 1;
            const int64_t p = lo[d] + hi;
            inside = inside && p >= 0 && p < a.in_dims[d];
            off = off * a.in_dims[d] + p;
            w *= hi ? frac[d] : (A)1 - frac[d];
          }
          if (inside) sample += w * (A)img[off];
        }
        acc += weight * sample;
      }
    }
    if (a.has_bias) acc += (A)B[oc];
    Y[i] = (T)acc;
  }
}
