// DFT and STFT (ops/dft/dft.cpp): a direct transform, one output bin per thread, over a
// twiddle table a first kernel fills on the device (so a run uploads nothing and
// stays capturable in a CUDA Graph). The table holds cos/sin(2 pi j / n) for
// j < n, computed in double; a bin k reads entry (k * t) mod n, kept exact as an
// integer that steps by k, so large n loses no accuracy to a rounded angle.
// f16/bf16 accumulate in f32, f32 in f32, f64 in f64.
#include "backends/kernel_prelude.cuh"

// tw[2j] = cos(2 pi j / n), tw[2j + 1] = sin(2 pi j / n), j in [0, n).
template <typename A>
GK_KERNEL void gk_dft_twiddles(A* GK_RESTRICT tw, int64_t n) {
  GK_KERNEL_LOOP(j, n) {
    const double x = 6.283185307179586476925 * (double)j / (double)n;
    tw[2 * j] = (A)cos(x);
    tw[2 * j + 1] = (A)sin(x);
  }
}

// Must match DftParams in ops/dft/dft.cpp. The output is [outer, frames, bins, inner,
// out_c]; input sample t of output row (b, f, ., i) is at
// b * in_batch + f * in_frame + t * in_step + i * in_c (+1 for the imaginary part).
struct gk_dft_params {
  int64_t outer;     // DFT: product of the dims before the axis; STFT: batch
  int64_t frames;    // STFT frames; 1 for DFT
  int64_t bins;      // output length along the transformed axis
  int64_t inner;     // DFT: product of the dims between the axis and the last; STFT: 1
  int64_t n;         // transform length (dft_length, frame_length)
  int64_t used;      // input samples (IRFFT: bins) read per transform, <= n
  int64_t in_batch;  // element strides of the input, see above
  int64_t in_frame;
  int64_t in_step;
  int32_t in_c;      // 1 real, 2 complex
  int32_t out_c;     // 2, or 1 for IRFFT
  int32_t inverse;   // e^{+j...} and a 1/n scale
  int32_t irfft;     // one-sided complex in, real out (numpy irfft)
};

// Forward: y[k] = sum_t x[t] w[t] e^{-2 pi j k t / n}; inverse: e^{+...} / n.
// IRFFT: y[t] = (1/n) sum_k c_k Re(X[k] e^{2 pi j k t / n}) over the one-sided bins,
// c_k = 1 for k = 0 and k = n/2 (n even), else 2: the Hermitian extension, which
// ignores the imaginary parts of the DC and Nyquist bins as numpy's irfft does.
template <typename T>
GK_KERNEL void gk_dft(const T* GK_RESTRICT x, const T* GK_RESTRICT window,
                      const typename gk_acc<T>::type* GK_RESTRICT tw, T* GK_RESTRICT y, gk_dft_params p) {
  typedef typename gk_acc<T>::type A;
  GK_KERNEL_LOOP(e, p.outer * p.frames * p.bins * p.inner) {
    int64_t r = e / p.inner;
    const int64_t i = e - r * p.inner;
    const int64_t k = r % p.bins;
    r /= p.bins;
    const int64_t f = r % p.frames;
    const int64_t b = r / p.frames;
    const T* xs = x + b * p.in_batch + f * p.in_frame + i * p.in_c;
    const A sign = p.inverse ? (A)1 : (A)-1;
    A re = 0, im = 0;
    int64_t j = 0;  // (k * t) mod n
    for (int64_t t = 0; t < p.used; ++t) {
      const A c = tw[2 * j], s = sign * tw[2 * j + 1];
      A xr = (A)xs[t * p.in_step];
      A xi = p.in_c == 2 ? (A)xs[t * p.in_step + 1] : (A)0;
      if (window) {
        const A w = (A)window[t];
        xr *= w;
        xi *= w;
      }
      if (p.irfft) {
        const A wk = (t == 0 || 2 * t == p.n) ? (A)1 : (A)2;
        re += wk * (xr * c - xi * s);
      } else {
        re += xr * c - xi * s;
        im += xr * s + xi * c;
      }
      j += k;
      if (j >= p.n) j -= p.n;
    }
    if (p.inverse) {
      const A scale = (A)1 / (A)p.n;
      re *= scale;
      im *= scale;
    }
    y[e * p.out_c] = (T)re;
    if (p.out_c == 2) y[e * p.out_c + 1] = (T)im;
  }
}
