// Det: determinants of a batch of M x M matrices, one thread per matrix (batches of
// small matrices are the use; a large single matrix would want a blocked LU).
// Gaussian elimination with partial pivoting in double in a per-matrix workspace,
// whatever the element type: f32 inputs keep ~1e-7 relative accuracy for the
// moderately conditioned matrices models feed it.
#include "backends/kernel_prelude.cuh"

template <typename T>
GK_KERNEL void gk_det(const T* GK_RESTRICT x, T* GK_RESTRICT y, double* GK_RESTRICT work, int64_t batch,
                      int64_t m) {
  GK_KERNEL_LOOP(b, batch) {
    const int64_t mm = m * m;
    const T* src = x + b * mm;
    double* a = work + b * mm;
    for (int64_t e = 0; e < mm; ++e) a[e] = (double)(typename gk_acc<T>::type)src[e];
    double det = 1.0;
    for (int64_t k = 0; k < m; ++k) {
      int64_t p = k;
      double best = fabs(a[k * m + k]);
      for (int64_t r = k + 1; r < m; ++r) {
        const double v = fabs(a[r * m + k]);
        if (v > best) {
          best = v;
          p = r;
        }
      }
      if (best == 0.0) {
        det = 0.0;
        break;
      }
      if (p != k) {
        for (int64_t c = k; c < m; ++c) {
          const double t = a[k * m + c];
          a[k * m + c] = a[p * m + c];
          a[p * m + c] = t;
        }
        det = -det;
      }
      const double pivot = a[k * m + k];
      det *= pivot;
      for (int64_t r = k + 1; r < m; ++r) {
        const double f = a[r * m + k] / pivot;
        for (int64_t c = k + 1; c < m; ++c) a[r * m + c] -= f * a[k * m + c];
      }
    }
    y[b] = (T)(typename gk_acc<T>::type)det;
  }
}
