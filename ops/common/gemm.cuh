// The tiled GEMM core shared by MatMul, Gemm, Conv and ConvTranspose: one block
// computes a 64x64 output tile, C(m, n) = sum_k A(m, k) * B(k, n). Each element
// folds K in blocks of GK_GEMM_KBLOCK terms (ascending k, one fused multiply-add
// per term with gk_madd, each block from zero), and the block sums are added in
// order to the element's total, which starts from zero (../shared/DESIGN.md,
// Numerics: the error grows with K / 32 instead of K). The CPU twin
// (ops/common/gemm_block.h, gemm_micro.h) folds each element the same way, so both
// backends agree bit for bit.
//
// On CUDA: 256 threads, each a 4x4 register block (rows ty + 16 i, columns
// tx + 16 j so that stores coalesce), operands staged through shared memory in
// 16-deep k slices converted to the accumulator type.
#pragma once
#include "backends/kernel_prelude.cuh"
#include "ops/common/wrap_arith.cuh"

#define GK_GEMM_TILE 64
#define GK_GEMM_TK 16
#define GK_GEMM_KBLOCK 32
#define GK_GEMM_THREADS 256

static GK_FN float gk_madd(float a, float b, float c) { return fmaf(a, b, c); }
static GK_FN double gk_madd(double a, double b, double c) { return fma(a, b, c); }
// Integers (8 to 64 bits, Einsum's small ones included) wrap as numpy's do
// (ops/common/wrap_arith.cuh).
template <typename I>
static GK_FN I gk_madd(I a, I b, I c) { return gk_wrap_add(gk_wrap_mul(a, b), c); }

// y = alpha * acc + beta * c (each product skipped when its factor is the identity
// so that the common alpha = beta = 1 path is exact), then the activation.
template <typename Acc>
static GK_FN Acc gk_gemm_finish(Acc acc, float alpha, int has_c, Acc c, float beta) {
  Acc y = alpha == 1.0f ? acc : gk_wrap_mul((Acc)alpha, acc);
  if (has_c) y = gk_wrap_add(y, beta == 1.0f ? c : gk_wrap_mul((Acc)beta, c));
  return y;
}

#ifdef __CUDACC_RTC__
// la(m, k) / lb(k, n) return the operand element as Acc (zero outside [0,M)x[0,K) /
// [0,K)x[0,N) is the loader's job); st(m, n, acc) is called for in-range elements.
template <typename Acc, class LA, class LB, class ST>
static __device__ void gk_gemm_block(const LA& la, const LB& lb, const ST& st, int64_t M, int64_t N,
                                     int64_t K, int64_t m0, int64_t n0) {
  __shared__ Acc As[GK_GEMM_TK][GK_GEMM_TILE + 1];
  __shared__ Acc Bs[GK_GEMM_TK][GK_GEMM_TILE];
  const int tid = threadIdx.x, tx = tid % 16, ty = tid / 16;
  Acc acc[4][4], blk[4][4];
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) acc[i][j] = blk[i][j] = (Acc)0;
  for (int64_t k0 = 0; k0 < K; k0 += GK_GEMM_TK) {
    for (int r = 0; r < 4; ++r) {
      int e = tid + r * GK_GEMM_THREADS;
      int am = e / GK_GEMM_TK, ak = e % GK_GEMM_TK;
      int64_t gm = m0 + am, gka = k0 + ak;
      As[ak][am] = (gm < M && gka < K) ? la(gm, gka) : (Acc)0;
      int bk = e / GK_GEMM_TILE, bn = e % GK_GEMM_TILE;
      int64_t gn = n0 + bn, gkb = k0 + bk;
      Bs[bk][bn] = (gn < N && gkb < K) ? lb(gkb, gn) : (Acc)0;
    }
    __syncthreads();
    const int kn = (K - k0) < GK_GEMM_TK ? (int)(K - k0) : GK_GEMM_TK;
    for (int kk = 0; kk < kn; ++kk) {
      Acc a[4], b[4];
      for (int i = 0; i < 4; ++i) a[i] = As[kk][ty + 16 * i];
      for (int j = 0; j < 4; ++j) b[j] = Bs[kk][tx + 16 * j];
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) blk[i][j] = gk_madd(a[i], b[j], blk[i][j]);
      const int64_t k = k0 + kk + 1;  // terms folded so far
      if (k % GK_GEMM_KBLOCK == 0 || k == K)
        for (int i = 0; i < 4; ++i)
          for (int j = 0; j < 4; ++j) {
            acc[i][j] = gk_wrap_add(acc[i][j], blk[i][j]);
            blk[i][j] = (Acc)0;
          }
    }
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i) {
    int64_t m = m0 + ty + 16 * i;
    if (m >= M) continue;
    for (int j = 0; j < 4; ++j) {
      int64_t n = n0 + tx + 16 * j;
      if (n < N) st(m, n, acc[i][j]);
    }
  }
}
#endif
