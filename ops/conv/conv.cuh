// Conv / ConvTranspose kernels. Spatial dims are always three (1-D and 2-D pad
// with leading 1s). gk_conv is an implicit GEMM on the shared tile core: per
// (image, group), Y(m, p) = sum_k W(m, k) X_col(k, p) with k = (c, kd, kh, kw) and
// the im2col column gathered on the fly (zero in the padding), so no im2col
// buffer is ever written. CPU twins of gk_conv, gk_conv_depthwise and gk_col2im
// live in ops/conv/conv_cpu.cpp.
#pragma once
#include "backends/kernel_prelude.cuh"
#include "ops/common/epilogue.cuh"
#include "ops/common/gemm.cuh"

struct gk_conv_args {
  int64_t in[3], out[3], k[3], s[3], dil[3], pad[3];
  int64_t C, Cg;     // input channels, per group
  int64_t Cout, M;   // output channels, per group
  int64_t group, batch;  // batch = images * group
  int64_t K, P;      // Cg * kernel volume, output spatial volume
  int32_t has_bias;
  // 1 when W is a plan-time constant with no Inf or NaN: the CPU kernel may then
  // leave out taps that read only padding (0 * w adds +-0, no bit changes); with
  // an Inf weight the dense fold's NaN there must stay. CUDA always folds them.
  int32_t finite_w;
};

// One depth slice, stride 1 along W: the geometry of the CPU's row-window path
// (conv_cpu.cpp, which also asks for rows wide enough for its register strips).
static GK_FN bool gk_conv_row_window_geometry(const gk_conv_args& a) {
  return a.s[2] == 1 && a.k[0] == 1 && a.in[0] == 1 && a.out[0] == 1;
}

#ifdef __CUDACC_RTC__
template <typename T>
struct gk_conv_load_w {
  const T* w;
  int64_t K;
  GK_FN typename gk_acc<T>::type operator()(int64_t m, int64_t k) const {
    return (typename gk_acc<T>::type)w[m * K + k];
  }
};

// The im2col element (k, p) of one (image, group); 32-bit decode (the host checks
// K and P fit) keeps the divisions cheap.
template <typename T>
struct gk_conv_load_x {
  const T* x;
  gk_conv_args a;
  GK_FN typename gk_acc<T>::type operator()(int64_t kk, int64_t pp) const {
    const int32_t kv = (int32_t)(a.k[0] * a.k[1] * a.k[2]), khw = (int32_t)(a.k[1] * a.k[2]);
    const int32_t ohw = (int32_t)(a.out[1] * a.out[2]);
    int32_t k = (int32_t)kk, p = (int32_t)pp;
    int32_t c = k / kv, r = k - c * kv;
    int32_t kd = r / khw;
    r -= kd * khw;
    int32_t kh = r / (int32_t)a.k[2], kw = r - kh * (int32_t)a.k[2];
    int32_t od = p / ohw, q = p - od * ohw;
    int32_t oh = q / (int32_t)a.out[2], ow = q - oh * (int32_t)a.out[2];
    int64_t id = od * a.s[0] - a.pad[0] + kd * a.dil[0];
    int64_t ih = oh * a.s[1] - a.pad[1] + kh * a.dil[1];
    int64_t iw = ow * a.s[2] - a.pad[2] + kw * a.dil[2];
    if (id < 0 || id >= a.in[0] || ih < 0 || ih >= a.in[1] || iw < 0 || iw >= a.in[2])
      return (typename gk_acc<T>::type)0;
    return (typename gk_acc<T>::type)x[((c * a.in[0] + id) * a.in[1] + ih) * a.in[2] + iw];
  }
};

template <typename T>
struct gk_conv_store {
  T* y;
  const T* bias;
  int64_t P;
  int32_t has_bias, epi;
  float ea, eb;
  GK_FN void operator()(int64_t m, int64_t p, typename gk_acc<T>::type acc) const {
    typedef typename gk_acc<T>::type Acc;
    Acc b = has_bias ? (Acc)bias[m] : (Acc)0;
    y[m * P + p] = (T)gk_epilogue(gk_gemm_finish(acc, 1.0f, has_bias, b, 1.0f), epi, ea, eb);
  }
};

// Grid: x over output-pixel tiles, y over output-channel tiles, z over (image,
// group), each grid-stride.
template <typename T>
GK_KERNEL void gk_conv(const T* X, const T* W, const T* B, T* Y, gk_conv_args a, int32_t epi, float ea, float eb) {
  typedef typename gk_acc<T>::type Acc;
  const int64_t mtiles = (a.M + GK_GEMM_TILE - 1) / GK_GEMM_TILE, ptiles = (a.P + GK_GEMM_TILE - 1) / GK_GEMM_TILE;
  const int64_t isz = a.in[0] * a.in[1] * a.in[2];
  for (int64_t z = blockIdx.z; z < a.batch; z += gridDim.z) {
    const int64_t n = z / a.group, g = z - n * a.group;
    gk_conv_load_w<T> lw = {W + g * a.M * a.K, a.K};
    gk_conv_load_x<T> lx = {X + (n * a.C + g * a.Cg) * isz, a};
    gk_conv_store<T> st = {Y + (n * a.Cout + g * a.M) * a.P, a.has_bias ? B + g * a.M : B, a.P, a.has_bias, epi,
                           ea, eb};
    for (int64_t mt = blockIdx.y; mt < mtiles; mt += gridDim.y)
      for (int64_t pt = blockIdx.x; pt < ptiles; pt += gridDim.x)
        gk_gemm_block<Acc>(lw, lx, st, a.M, a.P, a.K, mt * GK_GEMM_TILE, pt * GK_GEMM_TILE);
  }
}

// Depthwise (group == C): one output element per step, taps in ascending
// (kd, kh, kw) order, out-of-input taps skipped. Output channel co reads input
// channel co / M (M = channel multiplier).
template <typename T>
GK_KERNEL void gk_conv_depthwise(const T* X, const T* W, const T* B, T* Y, gk_conv_args a, int32_t epi, float ea,
                                 float eb, int64_t n) {
  typedef typename gk_acc<T>::type Acc;
  GK_KERNEL_LOOP(i, n) {
    int64_t p = i % a.P, nc = i / a.P;
    int64_t co = nc % a.Cout, img = nc / a.Cout;
    int64_t ow = p % a.out[2], t = p / a.out[2];
    int64_t oh = t % a.out[1], od = t / a.out[1];
    const T* x = X + (img * a.C + co / a.M) * a.in[0] * a.in[1] * a.in[2];
    const T* w = W + co * a.k[0] * a.k[1] * a.k[2];
    // Taps fold in blocks of GK_GEMM_KBLOCK tap indices (blk), each added in order to acc.
    Acc acc = (Acc)0, blk = (Acc)0;
    int64_t block = 0;
    for (int64_t kd = 0; kd < a.k[0]; ++kd) {
      int64_t id = od * a.s[0] - a.pad[0] + kd * a.dil[0];
      if (id < 0 || id >= a.in[0]) continue;
      for (int64_t kh = 0; kh < a.k[1]; ++kh) {
        int64_t ih = oh * a.s[1] - a.pad[1] + kh * a.dil[1];
        if (ih < 0 || ih >= a.in[1]) continue;
        const T* xr = x + (id * a.in[1] + ih) * a.in[2];
        const int64_t tap0 = (kd * a.k[1] + kh) * a.k[2];
        const T* wr = w + tap0;
        for (int64_t kw = 0; kw < a.k[2]; ++kw) {
          int64_t iw = ow * a.s[2] - a.pad[2] + kw * a.dil[2];
          if (iw < 0 || iw >= a.in[2]) continue;
          if ((tap0 + kw) / GK_GEMM_KBLOCK != block) {
            acc = gk_wrap_add(acc, blk);
            blk = (Acc)0;
            block = (tap0 + kw) / GK_GEMM_KBLOCK;
          }
          blk = gk_madd((Acc)xr[iw], (Acc)wr[kw], blk);
        }
      }
    }
    acc = gk_wrap_add(acc, blk);
    Acc b = a.has_bias ? (Acc)B[co] : (Acc)0;
    Y[i] = (T)gk_epilogue(gk_gemm_finish(acc, 1.0f, a.has_bias, b, 1.0f), epi, ea, eb);
  }
}
#endif

// ConvTranspose, second half (CPU twin in ops/conv/conv_cpu.cpp): the GEMM wrote col[(co * KV + kidx) * ISZ + ipix] =
// sum_c W(c, co, kidx) X(c, ipix), co over (image, channel); each output pixel gathers the
// (kd, kh, kw) taps that land on it (in ascending order), adds the bias and
// applies the activation. `a.in` is the ConvTranspose input, `a.out` its output.
#ifdef __CUDACC_RTC__
template <typename T>
GK_KERNEL void gk_col2im(const T* col, const T* B, T* Y, gk_conv_args a, int32_t epi, float ea, float eb, int64_t n) {
  typedef typename gk_acc<T>::type Acc;
  const int64_t isz = a.in[0] * a.in[1] * a.in[2], kv = a.k[0] * a.k[1] * a.k[2];
  GK_KERNEL_LOOP(i, n) {
    int64_t co = i / a.P, p = i - co * a.P;
    int64_t ow = p % a.out[2], t = p / a.out[2];
    int64_t oh = t % a.out[1], od = t / a.out[1];
    Acc acc = (Acc)0;
    for (int64_t kd = 0; kd < a.k[0]; ++kd) {
      int64_t td = od + a.pad[0] - kd * a.dil[0];
      if (td < 0 || td % a.s[0] != 0 || td / a.s[0] >= a.in[0]) continue;
      for (int64_t kh = 0; kh < a.k[1]; ++kh) {
        int64_t th = oh + a.pad[1] - kh * a.dil[1];
        if (th < 0 || th % a.s[1] != 0 || th / a.s[1] >= a.in[1]) continue;
        for (int64_t kw = 0; kw < a.k[2]; ++kw) {
          int64_t tw = ow + a.pad[2] - kw * a.dil[2];
          if (tw < 0 || tw % a.s[2] != 0 || tw / a.s[2] >= a.in[2]) continue;
          int64_t kidx = (kd * a.k[1] + kh) * a.k[2] + kw;
          int64_t ipix = ((td / a.s[0]) * a.in[1] + th / a.s[1]) * a.in[2] + tw / a.s[2];
          acc = gk_wrap_add(acc, (Acc)col[(co * kv + kidx) * isz + ipix]);
        }
      }
    }
    Acc b = a.has_bias ? (Acc)B[co % a.Cout] : (Acc)0;
    Y[i] = (T)gk_epilogue(gk_gemm_finish(acc, 1.0f, a.has_bias, b, 1.0f), epi, ea, eb);
  }
}
#endif
