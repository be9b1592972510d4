// Detection kernels: RoiAlign and MaxRoiPool, one output element (roi, c, ph, pw)
// per loop step.
// Sampling follows ONNX Runtime's RoiAlign (which the ONNX reference and its test
// data copy): a sample outside [-1, size] contributes 0, coordinates clamp at 0 and
// at size - 1; avg divides the sum of bilinear samples by the grid count; max takes
// the largest of the four weighted corner terms of each sample.
// NonMaxSuppression runs on the host (ops/detection/nms.cpp): greedy selection is sequential.
#pragma once
#include "backends/kernel_prelude.cuh"
#include "ops/common/math.cuh"

struct gk_roi_align_args {
  int64_t batch, channels, height, width;
  int64_t pooled_h, pooled_w;
  float spatial_scale;
  int32_t sampling_ratio;  // 0: adaptive, ceil(roi size / pooled size)
  int32_t mode_max;
  int32_t half_pixel;  // 1: shift the roi by -0.5 pixel; 0: output_half_pixel (opset 10)
};

// Output element i of a [rois, channels, pooled_h, pooled_w] result: its coordinates.
static GK_FN void gk_roi_bin_of(int64_t i, int64_t channels, int64_t pooled_h, int64_t pooled_w, int64_t* r,
                                int64_t* c, int64_t* ph, int64_t* pw) {
  *pw = i % pooled_w;
  const int64_t t1 = i / pooled_w;
  *ph = t1 % pooled_h;
  const int64_t t2 = t1 / pooled_h;
  *c = t2 % channels;
  *r = t2 / channels;
}

// Adaptive grid: ceil(bin size). A NaN or negative bin samples nothing; the cap
// keeps a hostile roi from overflowing the count (2^20 is far past any image).
template <typename A>
static GK_FN int64_t gk_roi_grid(A bin) {
  if (!(bin > (A)0)) return 0;
  return bin < (A)1048576 ? (int64_t)gk_ceil(bin) : 1048576;
}

// Sample i of a bin's grid along one axis: start + (i + 0.5) * bin / grid, in
// that order of operations, so the range search and the sampling loop see the
// same values. For i < 2^24 every step rounds monotonically, so the samples are
// monotone in i and those inside [-1, size] form one run of indices.
template <typename A>
static GK_FN A gk_roi_sample(A start, A bin, int64_t i, int64_t grid) {
  return start + ((A)i + (A)0.5) * bin / (A)grid;
}

// Grids up to this long are walked whole; longer ones (an adaptive grid over a
// huge or hostile roi: up to 2^20 samples per axis) only over the samples inside
// [-1, size], found by two binary searches. A bin then costs at most about
// 2 * (size + 2) samples per axis, never the roi's extent. // untuned
#define GK_ROI_CLIP_GRID 16

// [*lo, *hi): the samples of this axis that can land inside [-1, size]; the rest
// contribute zeros.
template <typename A>
static GK_FN void gk_roi_inside(A start, A bin, int64_t grid, A size, int64_t* lo, int64_t* hi) {
  *lo = 0;
  *hi = grid;
  if (grid <= GK_ROI_CLIP_GRID) return;
  const A first = gk_roi_sample(start, bin, 0, grid), last = gk_roi_sample(start, bin, grid - 1, grid);
  if (!(first == first) || !(last == last)) {  // NaN start or bin: every sample is NaN, none inside
    *hi = 0;
    return;
  }
  const bool rising = first <= last;
  // before(i): sample i lies on the near side of [-1, size], true for a prefix.
  int64_t a = 0, b = grid;
  while (a < b) {
    const int64_t m = a + (b - a) / 2;
    const A v = gk_roi_sample(start, bin, m, grid);
    if (rising ? v < (A)-1 : v > size) a = m + 1; else b = m;
  }
  *lo = a;
  // past(i): sample i lies on the far side, true for a suffix.
  b = grid;
  while (a < b) {
    const int64_t m = a + (b - a) / 2;
    const A v = gk_roi_sample(start, bin, m, grid);
    if (rising ? v > size : v < (A)-1) b = m; else a = m + 1;
  }
  *hi = a;
}

// One max-mode step: the first sample is taken as is, later ones when larger
// (a NaN first sample stays). Repeating a step with the same value changes
// nothing, so a run of outside samples (each 0) is one step.
template <typename A>
static GK_FN void gk_roi_max_step(A m, A* best, bool* any) {
  *best = !*any || m > *best ? m : *best;
  *any = true;
}

template <typename T>
GK_KERNEL void gk_roi_align(const T* X, const T* rois, const int64_t* batch_indices, T* Y, gk_roi_align_args a,
                            int32_t* flag, int64_t n) {
  typedef typename gk_acc<T>::type Acc;
  GK_KERNEL_LOOP(i, n) {
    int64_t r, c, ph, pw;
    gk_roi_bin_of(i, a.channels, a.pooled_h, a.pooled_w, &r, &c, &ph, &pw);
    int64_t b = batch_indices[r];
    if (b < 0 || b >= a.batch) {
      gk_raise(flag, 1);
      b = b < 0 ? 0 : a.batch - 1;
    }
    const T* roi = rois + r * 4;
    const Acc scale = (Acc)a.spatial_scale;
    const Acc offset = a.half_pixel ? (Acc)0.5 : (Acc)0;
    const Acc x0 = (Acc)roi[0] * scale - offset, y0 = (Acc)roi[1] * scale - offset;
    const Acc x1 = (Acc)roi[2] * scale - offset, y1 = (Acc)roi[3] * scale - offset;
    Acc roi_w = x1 - x0, roi_h = y1 - y0;
    if (!a.half_pixel) {  // backward compatibility: malformed rois become 1x1
      roi_w = roi_w > (Acc)1 ? roi_w : (Acc)1;
      roi_h = roi_h > (Acc)1 ? roi_h : (Acc)1;
    }
    const Acc bin_h = roi_h / (Acc)a.pooled_h, bin_w = roi_w / (Acc)a.pooled_w;
    const int64_t grid_h = a.sampling_ratio > 0 ? a.sampling_ratio : gk_roi_grid(roi_h / (Acc)a.pooled_h);
    const int64_t grid_w = a.sampling_ratio > 0 ? a.sampling_ratio : gk_roi_grid(roi_w / (Acc)a.pooled_w);
    const int64_t count = grid_h * grid_w > 1 ? grid_h * grid_w : 1;
    const T* img = X + (b * a.channels + c) * a.height * a.width;
    const Acc H = (Acc)a.height, W = (Acc)a.width;
    const Acc y_start = y0 + (Acc)ph * bin_h, x_start = x0 + (Acc)pw * bin_w;
    int64_t iy_lo, iy_hi, ix_lo, ix_hi;
    gk_roi_inside(y_start, bin_h, grid_h, H, &iy_lo, &iy_hi);
    gk_roi_inside(x_start, bin_w, grid_w, W, &ix_lo, &ix_hi);
    if (ix_hi <= ix_lo) iy_hi = iy_lo;  // no column inside: no sample inside
    Acc sum = (Acc)0, best = (Acc)0;
    bool any = false;
    // Outside samples add +0 to the sum (never -0: it starts at +0), so skipping
    // them leaves it bit for bit; in max mode each run of them is one 0 step.
    if (a.mode_max && iy_lo > 0 && grid_w > 0) gk_roi_max_step((Acc)0, &best, &any);
    for (int64_t iy = iy_lo; iy < iy_hi; ++iy) {
      const Acc y = gk_roi_sample(y_start, bin_h, iy, grid_h);
      if (a.mode_max && ix_lo > 0) gk_roi_max_step((Acc)0, &best, &any);
      for (int64_t ix = ix_lo; ix < ix_hi; ++ix) {
        const Acc x = gk_roi_sample(x_start, bin_w, ix, grid_w);
        Acc v1 = 0, v2 = 0, v3 = 0, v4 = 0;
        if (y >= (Acc)-1 && y <= H && x >= (Acc)-1 && x <= W) {  // false for NaN too
          Acc yy = y <= (Acc)0 ? (Acc)0 : y, xx = x <= (Acc)0 ? (Acc)0 : x;
          int64_t y_lo = (int64_t)yy, x_lo = (int64_t)xx, y_hi, x_hi;
          if (y_lo >= a.height - 1) {
            y_hi = y_lo = a.height - 1;
            yy = (Acc)y_lo;
          } else {
            y_hi = y_lo + 1;
          }
          if (x_lo >= a.width - 1) {
            x_hi = x_lo = a.width - 1;
            xx = (Acc)x_lo;
          } else {
            x_hi = x_lo + 1;
          }
          const Acc ly = yy - (Acc)y_lo, lx = xx - (Acc)x_lo;
          const Acc hy = (Acc)1 - ly, hx = (Acc)1 - lx;
          v1 = hy * hx * (Acc)img[y_lo * a.width + x_lo];
          v2 = hy * lx * (Acc)img[y_lo * a.width + x_hi];
          v3 = ly * hx * (Acc)img[y_hi * a.width + x_lo];
          v4 = ly * lx * (Acc)img[y_hi * a.width + x_hi];
        }
        if (a.mode_max) {
          Acc m = v1 > v2 ? v1 : v2;
          m = m > v3 ? m : v3;
          m = m > v4 ? m : v4;
          gk_roi_max_step(m, &best, &any);
        } else {
          sum += v1 + v2 + v3 + v4;
        }
      }
      if (a.mode_max && ix_hi < grid_w) gk_roi_max_step((Acc)0, &best, &any);
    }
    if (a.mode_max && iy_hi < grid_h && grid_w > 0) gk_roi_max_step((Acc)0, &best, &any);
    Y[i] = (T)(a.mode_max ? best : sum / (Acc)count);
  }
}

// MaxRoiPool (Caffe's ROI pooling, as ONNX Runtime's roi_pool.cc): the roi's
// corners scale and round half away from zero to pixels, the roi spans at least
// one pixel, bin (ph, pw) covers rows [floor(ph * bin_h), ceil((ph + 1) * bin_h))
// from the roi's top, clamped into the image; an empty bin gives 0. The batch id
// (rois[r][0], in X's type) outside [0, N) clamps and raises the out-of-range flag.
struct gk_max_roi_pool_args {
  int64_t batch, channels, height, width;
  int64_t pooled_h, pooled_w;
  float spatial_scale;
};

template <typename A>
static GK_FN int64_t gk_round_half_away(A v) {
  const A r = v < (A)0 ? -gk_floor(-v + (A)0.5) : gk_floor(v + (A)0.5);
  // A NaN or a corner past any image becomes a far-away pixel, never an overflow.
  if (!(r > (A)-1e15)) return -1000000000000000LL;
  return r < (A)1e15 ? (int64_t)r : 1000000000000000LL;
}

template <typename T>
GK_KERNEL void gk_max_roi_pool(const T* X, const T* rois, T* Y, gk_max_roi_pool_args a, int32_t* flag, int64_t n) {
  typedef typename gk_acc<T>::type Acc;
  GK_KERNEL_LOOP(i, n) {
    int64_t r, c, ph, pw;
    gk_roi_bin_of(i, a.channels, a.pooled_h, a.pooled_w, &r, &c, &ph, &pw);
    const T* roi = rois + r * 5;
    const Acc batch_id = (Acc)roi[0];
    int64_t b = batch_id >= (Acc)0 && batch_id < (Acc)a.batch ? (int64_t)batch_id : -1;
    if (b < 0) {
      gk_raise(flag, 1);
      b = batch_id >= (Acc)a.batch ? a.batch - 1 : 0;
    }
    const Acc scale = (Acc)a.spatial_scale;
    const int64_t x0 = gk_round_half_away((Acc)roi[1] * scale), y0 = gk_round_half_away((Acc)roi[2] * scale);
    const int64_t x1 = gk_round_half_away((Acc)roi[3] * scale), y1 = gk_round_half_away((Acc)roi[4] * scale);
    const int64_t roi_h = y1 - y0 + 1 > 1 ? y1 - y0 + 1 : 1, roi_w = x1 - x0 + 1 > 1 ? x1 - x0 + 1 : 1;
    const Acc bin_h = (Acc)roi_h / (Acc)a.pooled_h, bin_w = (Acc)roi_w / (Acc)a.pooled_w;
    int64_t h0 = (int64_t)gk_floor((Acc)ph * bin_h) + y0, h1 = (int64_t)gk_ceil((Acc)(ph + 1) * bin_h) + y0;
    int64_t w0 = (int64_t)gk_floor((Acc)pw * bin_w) + x0, w1 = (int64_t)gk_ceil((Acc)(pw + 1) * bin_w) + x0;
    h0 = h0 < 0 ? 0 : (h0 > a.height ? a.height : h0);
    h1 = h1 < 0 ? 0 : (h1 > a.height ? a.height : h1);
    w0 = w0 < 0 ? 0 : (w0 > a.width ? a.width : w0);
    w1 = w1 < 0 ? 0 : (w1 > a.width ? a.width : w1);
    const T* img = X + (b * a.channels + c) * a.height * a.width;
    bool any = false;
    Acc best = (Acc)0;
    for (int64_t h = h0; h < h1; ++h)
      for (int64_t w = w0; w < w1; ++w) {
        const Acc v = (Acc)img[h * a.width + w];
        if (!any || v > best) best = v;
        any = true;
      }
    Y[i] = (T)best;
  }
}
