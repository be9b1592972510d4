// Signal generators whose inputs are all sizes/scalars: the cosine-sum windows
// (Hann, Hamming, Blackman) and MelWeightMatrix. Every element is computed on its
// own in double (the spec's references compute in float64 or wider), then
// converted to the output type the way numpy's astype does (integers truncate).
#include "backends/kernel_prelude.cuh"

template <typename T>
static GK_FN T gk_signal_from_double(double v) {
  if (!gk_is_float_t<T>::value) v = trunc(v);
  return (T)(typename gk_acc<T>::type)v;
}

// y[k] = a0 - a1 cos(2 pi k / denom) + a2 cos(4 pi k / denom), k in [0, n).
// denom is n for periodic windows, n - 1 for symmetric ones; denom 0 (a symmetric
// window of one point) yields the window's peak, 1, as torch.*_window does.
template <typename T>
GK_KERNEL void gk_window(T* GK_RESTRICT y, int64_t n, double denom, double a0, double a1, double a2) {
  GK_KERNEL_LOOP(k, n) {
    double v = 1.0;
    if (denom > 0) {
      const double x = 6.283185307179586476925 * (double)k / denom;
      v = a0 - a1 * cos(x) + a2 * cos(2.0 * x);
    }
    y[k] = gk_signal_from_double<T>(v);
  }
}

// Must match MelParams in ops/signal/signal_ops.cpp.
struct gk_mel_params {
  int64_t spectrogram_bins;  // rows: floor(dft_length / 2) + 1
  int64_t mel_bins;          // columns
  double low_mel;            // mel(lower_edge_hertz)
  double mel_step;           // (mel(upper) - mel(lower)) / (mel_bins + 2)
  double dft_scale;          // dft_length + 1
  double sample_rate;
};

// Band edge t (0 .. mel_bins + 1) as a spectrogram bin, as the spec's reference
// computes it: floor((dft_length + 1) * hz(low_mel + t * step) / sample_rate).
static GK_FN int64_t gk_mel_edge(const gk_mel_params& p, int64_t t) {
  const double mel = (double)t * p.mel_step + p.low_mel;
  const double hz = 700.0 * (pow(10.0, mel / 2595.0) - 1.0);
  return (int64_t)floor(p.dft_scale * hz / p.sample_rate);
}

// y [spectrogram_bins, mel_bins]: band i is the triangle rising from edge i to
// edge i+1 and falling to edge i+2 (the falling side wins at the centre, as the
// reference writes it second; both give 1 there).
template <typename T>
GK_KERNEL void gk_mel_weight_matrix(T* GK_RESTRICT y, gk_mel_params p) {
  GK_KERNEL_LOOP(e, p.spectrogram_bins * p.mel_bins) {
    const int64_t j = e / p.mel_bins;
    const int64_t i = e - j * p.mel_bins;
    const int64_t lo = gk_mel_edge(p, i), mid = gk_mel_edge(p, i + 1), hi = gk_mel_edge(p, i + 2);
    double v = 0.0;
    if (mid == lo) {
      if (j == mid) v = 1.0;
    } else if (j >= lo && j <= mid) {
      v = (double)(j - lo) / (double)(mid - lo);
    }
    if (hi > mid && j >= mid && j < hi) v = (double)(hi - j) / (double)(hi - mid);
    y[e] = gk_signal_from_double<T>(v);
  }
}
