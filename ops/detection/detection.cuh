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
    Acc sum = (Acc)0, best = (Acc)0;
    bool any = false;
    for (int64_t iy = 0; iy < grid_h; ++iy) {
      Acc y = y0 + (Acc)ph * bin_h + ((Acc)iy + (Acc)0.5) * bin_h / (Acc)grid_h;
      for (int64_t ix = 0; ix < grid_w; ++ix) {
        Acc x = x0 + (Acc)pw * bin_w + ((Acc)ix + (Acc)0.5) * bin_w / (Acc)grid_w;
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
          best = !any || m > best ? m : best;
          any = true;
        } else {
          sum += v1 + v2 + v3 + v4;
        }
      }
    }
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
