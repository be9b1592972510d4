// Pooling kernels: one output element per loop step, the window walked in
// ascending (kd, kh, kw) order over the taps that fall inside the input (padding
// never contributes a value: -inf for max, 0 for the sums). Spatial dims are
// always three (1-D and 2-D pad with leading 1s). The sums (AveragePool, LpPool,
// GlobalAveragePool) are blocked and pairwise over the taps in that order
// (ops/common/blocked_sum.cuh; LpPool's squares by FMA), on both backends.
#pragma once
#include "backends/kernel_prelude.cuh"
#include "ops/common/blocked_sum.cuh"
#include "ops/common/math.cuh"

struct gk_pool_args {
  int64_t in[3], out[3], k[3], s[3], dil[3], pad[3], pad_end[3];
  int32_t storage_order;      // MaxPool Indices: 0 row-major, 1 column-major
  int32_t count_include_pad;  // AveragePool divisor
};

#define GK_POOL_DECODE(i, a)                                          \
  const int64_t osz = a.out[0] * a.out[1] * a.out[2];                 \
  const int64_t isz = a.in[0] * a.in[1] * a.in[2];                    \
  const int64_t nc = i / osz, p = i - nc * osz;                       \
  const int64_t ow = p % a.out[2], t_ = p / a.out[2];                 \
  const int64_t oh = t_ % a.out[1], od = t_ / a.out[1];               \
  const int64_t d0 = od * a.s[0] - a.pad[0], h0 = oh * a.s[1] - a.pad[1], w0 = ow * a.s[2] - a.pad[2];

#define GK_POOL_WINDOW(a, BODY)                                       \
  for (int64_t kd = 0; kd < a.k[0]; ++kd) {                           \
    const int64_t id = d0 + kd * a.dil[0];                            \
    if (id < 0 || id >= a.in[0]) continue;                            \
    for (int64_t kh = 0; kh < a.k[1]; ++kh) {                         \
      const int64_t ih = h0 + kh * a.dil[1];                          \
      if (ih < 0 || ih >= a.in[1]) continue;                          \
      for (int64_t kw = 0; kw < a.k[2]; ++kw) {                       \
        const int64_t iw = w0 + kw * a.dil[2];                        \
        if (iw < 0 || iw >= a.in[2]) continue;                        \
        BODY                                                          \
      }                                                               \
    }                                                                 \
  }

// AveragePool's count_include_pad divisor along dim d: the taps of the window
// starting at `base` that fall inside the padded input [-pad, in + pad_end) (the
// part a ceil_mode window hangs past that is not counted). The CPU twin
// (pool_cpu.cpp) takes it per dim as the CUDA kernel does.
static GK_FN int64_t gk_pool_padded_taps(const gk_pool_args& a, int d, int64_t base) {
  int64_t c = 0;
  for (int64_t k = 0; k < a.k[d]; ++k) {
    const int64_t pos = base + k * a.dil[d];
    if (pos >= -a.pad[d] && pos < a.in[d] + a.pad_end[d]) ++c;
  }
  return c;
}

// One MaxPool tap at (id, ih, iw) of the plane x: a larger value (or the first tap)
// becomes the best, its index flat in the plane, or column-major with storage_order.
// The CUDA kernel and its CPU twin take every tap through it.
template <typename Acc, typename T>
static GK_FN void gk_pool_take_max(const gk_pool_args& a, const T* x, int64_t id, int64_t ih, int64_t iw, Acc& best,
                                   int64_t& arg) {
  const int64_t off = (id * a.in[1] + ih) * a.in[2] + iw;
  const Acc v = (Acc)x[off];
  if (arg < 0 || v > best) {
    best = v;
    arg = a.storage_order ? id + ih * a.in[0] + iw * a.in[0] * a.in[1] : off;
  }
}

// gk_maxpool and gk_avgpool have CPU twins in ops/pool/pool_cpu.cpp that walk output
// rows (one decode per row instead of per element), with the same fold order.
#ifdef __CUDACC_RTC__
// Indices (when I is not null) are flat positions in X, batch and channel included;
// a window with no tap inside the input yields the lowest value and index -1.
template <typename T>
GK_KERNEL void gk_maxpool(const T* X, T* Y, int64_t* I, gk_pool_args a, int64_t n) {
  typedef typename gk_acc<T>::type Acc;
  GK_KERNEL_LOOP(i, n) {
    GK_POOL_DECODE(i, a)
    const T* x = X + nc * isz;
    Acc best = (Acc)gk_limits<T>::lowest();
    int64_t arg = -1;
    GK_POOL_WINDOW(a, { gk_pool_take_max(a, x, id, ih, iw, best, arg); })
    Y[i] = (T)best;
    if (I) I[i] = arg < 0 ? -1 : nc * isz + arg;
  }
}

// count_include_pad: the divisor counts window taps inside the padded input
// (gk_pool_padded_taps); otherwise only taps inside the input.
template <typename T>
GK_KERNEL void gk_avgpool(const T* X, T* Y, gk_pool_args a, int64_t n) {
  typedef typename gk_acc<T>::type Acc;
  GK_KERNEL_LOOP(i, n) {
    GK_POOL_DECODE(i, a)
    const T* x = X + nc * isz;
    gk_bsum<Acc> sum;
    sum.init();
    int64_t count = 0;
    GK_POOL_WINDOW(a, {
      sum.add((Acc)x[(id * a.in[1] + ih) * a.in[2] + iw]);
      ++count;
    })
    if (a.count_include_pad)
      count = gk_pool_padded_taps(a, 0, d0) * gk_pool_padded_taps(a, 1, h0) * gk_pool_padded_taps(a, 2, w0);
    Y[i] = (T)(count > 0 ? sum.result() / (Acc)count : (Acc)0);
  }
}
#endif

template <typename T>
GK_KERNEL void gk_lppool(const T* X, T* Y, gk_pool_args a, float pnorm, int64_t n) {
  typedef typename gk_acc<T>::type Acc;
  GK_KERNEL_LOOP(i, n) {
    GK_POOL_DECODE(i, a)
    const T* x = X + nc * isz;
    gk_bsum<Acc> acc;
    acc.init();
    GK_POOL_WINDOW(a, {
      const Acc v = gk_fabs((Acc)x[(id * a.in[1] + ih) * a.in[2] + iw]);
      if (pnorm == 2.0f) acc.add_product(v, v);
      else acc.add(pnorm == 1.0f ? v : gk_pow(v, (Acc)pnorm));
    })
    const Acc sum = acc.result();
    Acc r = pnorm == 1.0f ? sum : pnorm == 2.0f ? gk_sqrt(sum) : gk_pow(sum, (Acc)1 / (Acc)pnorm);
    Y[i] = (T)r;
  }
}

// GlobalAveragePool / GlobalMaxPool: one (image, channel) plane per step.
template <typename T>
GK_KERNEL void gk_global_pool(const T* X, T* Y, int64_t plane, int32_t is_max, int64_t n) {
  typedef typename gk_acc<T>::type Acc;
  GK_KERNEL_LOOP(i, n) {
    const T* x = X + i * plane;
    Acc r = is_max ? (Acc)gk_limits<T>::lowest() : (Acc)0;
    if (is_max)
      for (int64_t j = 0; j < plane; ++j) {
        const Acc v = (Acc)x[j];
        r = v > r ? v : r;
      }
    else
      r = gk_bsum_row<Acc>(plane, [&](Acc s, int64_t j) { return gk_wrap_add(s, (Acc)x[j]); });
    Y[i] = (T)(is_max ? r : (plane > 0 ? r / (Acc)plane : (Acc)0));
  }
}

template <typename T>
GK_KERNEL void gk_pool_zero(T* Y, int64_t n) {
  GK_KERNEL_LOOP(i, n) { Y[i] = (T)0; }
}

// MaxUnpool: X[j] goes to the position I[j] names in the unpooled tensor of the
// natural shape (a.in: (in - 1) * stride + kernel - pads), placed at the same
// coordinates in Y (a.out, larger when an output_shape asks for it), as the ONNX
// reference does. An index outside the natural tensor, or a coordinate outside Y,
// raises the flag and is not written.
template <typename T>
GK_KERNEL void gk_maxunpool(const T* X, const int64_t* I, T* Y, gk_pool_args a, int64_t planes, int32_t* flag,
                            int64_t n) {
  const int64_t nat = a.in[0] * a.in[1] * a.in[2], osz = a.out[0] * a.out[1] * a.out[2];
  GK_KERNEL_LOOP(i, n) {
    const int64_t j = I[i];
    const int64_t plane = j / nat, r = j - plane * nat;
    const int64_t w = r % a.in[2], t = r / a.in[2];
    const int64_t h = t % a.in[1], d = t / a.in[1];
    if (j < 0 || plane >= planes || d >= a.out[0] || h >= a.out[1] || w >= a.out[2]) {
      gk_raise(flag, 1);
      continue;
    }
    Y[plane * osz + (d * a.out[1] + h) * a.out[2] + w] = X[i];
  }
}
