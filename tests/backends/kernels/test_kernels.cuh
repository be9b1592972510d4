// Kernels for the backend tests: run by NVRTC on a GPU and compiled into the CPU
// backend, so the tests compare both against a host loop.
#include "backends/kernel_prelude.cuh"

template <typename T>
GK_KERNEL void gk_test_vector_add(const T* GK_RESTRICT a, const T* GK_RESTRICT b, T* GK_RESTRICT c,
                                  int64_t n) {
  GK_KERNEL_LOOP(i, n) { c[i] = a[i] + b[i]; }
}

GK_KERNEL void gk_test_saxpy(float a, const float* GK_RESTRICT x, float* GK_RESTRICT y, int64_t n) {
  GK_KERNEL_LOOP(i, n) { y[i] = fmaf(a, x[i], y[i]); }
}

// One thread per element of a rows x cols matrix, 2-D grid and block; the grid
// overhangs the matrix when its sides are not multiples of the block.
GK_KERNEL void gk_test_grid2d(float* out, int32_t rows, int32_t cols) {
  int32_t c = blockIdx.x * blockDim.x + threadIdx.x;
  int32_t r = blockIdx.y * blockDim.y + threadIdx.y;
  if (r < rows && c < cols) out[(int64_t)r * cols + c] = (float)r * 1000.0f + (float)c;
}

GK_KERNEL void gk_test_i64_affine(const int64_t* in, int64_t* out, int64_t mul, int64_t add, int64_t n) {
  GK_KERNEL_LOOP(i, n) { out[i] = in[i] * mul + add; }
}

// One element per thread with a bounds check: launched with n not a multiple of
// the block size.
GK_KERNEL void gk_test_bounded_scale(const double* in, double* out, double s, int64_t n) {
  int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * s;
}

struct gk_test_affine {
  float scale;
  float shift;
  int32_t pad;
};

GK_KERNEL void gk_test_pod_arg(const float* in, float* out, gk_test_affine p, int64_t n) {
  GK_KERNEL_LOOP(i, n) { out[i] = in[i] * p.scale + p.shift; }
}
