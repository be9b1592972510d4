// ai.onnx.ml Binarizer and ArrayFeatureExtractor.
#include "backends/kernel_prelude.cuh"

// y = 1 where x > threshold, else 0 (NaN gives 0, as the reference's x > t does).
// The comparison runs in double, where every float and int32 value and the float
// threshold are exact.
template <typename T>
GK_KERNEL void gk_binarizer(const T* x, T* y, int64_t n, double threshold) {
  GK_KERNEL_LOOP(i, n) { y[i] = (double)x[i] > threshold ? (T)1 : (T)0; }
}

// y[r, j] = x[r, idx[j]] over x viewed as [rows, d] and y as [rows, k]. T is a
// storage type of the element's width (the op copies bits). An index outside
// [0, d) is clamped and raises the flag (OutOfRange on the host); d > 0 whenever
// y is non-empty (checked by the launcher).
template <typename T>
GK_KERNEL void gk_array_feature_extract(const T* GK_RESTRICT x, const int64_t* GK_RESTRICT idx, T* GK_RESTRICT y,
                                        int32_t* flag, int64_t n, int64_t k, int64_t d) {
  GK_KERNEL_LOOP(i, n) {
    const int64_t r = i / k;
    int64_t c = idx[i - r * k];
    if (c < 0 || c >= d) {
      gk_raise(flag, 1);
      c = c < 0 ? 0 : d - 1;
    }
    y[i] = x[r * d + c];
  }
}
