// MatMul / Gemm / Einsum kernels. gk_matmul is the batched tiled GEMM (CUDA body
// here, CPU twin in ops/matmul/matmul_cpu.cpp); gk_einsum is a strided contraction, one
// output element per loop step.
#pragma once
#include "backends/kernel_prelude.cuh"
#include "ops/common/epilogue.cuh"
#include "ops/common/gemm.cuh"
#include "ops/common/indexing.cuh"
#include "ops/common/wrap_arith.cuh"

// Y[b] (M x N, contiguous) = act(alpha * A[b] B[b] + beta * C[b]); A[b](m, k) at
// a_off(b) + m a_sm + k a_sk, likewise B and C (C's strides 0 where it broadcasts).
// Batch offsets come from index maps over the output's batch dims.
struct gk_gemm_args {
  int64_t M, N, K, batch;
  int64_t a_sm, a_sk, b_sk, b_sn, c_sm, c_sn;
  float alpha, beta;
  int32_t has_c, pad_;
};

#ifdef __CUDACC_RTC__
template <typename T>
struct gk_mm_load {
  const T* p;
  int64_t s0, s1;
  GK_FN typename gk_acc<T>::type operator()(int64_t r, int64_t c) const {
    return (typename gk_acc<T>::type)p[r * s0 + c * s1];
  }
};

template <typename T>
struct gk_mm_store {
  T* y;
  const T* c;
  int64_t ldy, c_sm, c_sn;
  float alpha, beta;
  int32_t has_c, epi;
  float ea, eb;
  GK_FN void operator()(int64_t m, int64_t n, typename gk_acc<T>::type acc) const {
    typedef typename gk_acc<T>::type Acc;
    Acc cv = has_c ? (Acc)c[m * c_sm + n * c_sn] : (Acc)0;
    y[m * ldy + n] = (T)gk_epilogue(gk_gemm_finish(acc, alpha, has_c, cv, beta), epi, ea, eb);
  }
};

// Grid: x over N tiles, y over M tiles, z over the batch, each grid-stride (the CPU
// launch gives a block several N tiles so its packed A panel is reused).
template <typename T>
GK_KERNEL void gk_matmul(const T* A, const T* B, const T* C, T* Y, gk_gemm_args g, gk_index_map amap,
                         gk_index_map bmap, gk_index_map cmap, int32_t epi, float ea, float eb) {
  typedef typename gk_acc<T>::type Acc;
  const int64_t mtiles = (g.M + GK_GEMM_TILE - 1) / GK_GEMM_TILE;
  const int64_t ntiles = (g.N + GK_GEMM_TILE - 1) / GK_GEMM_TILE;
  for (int64_t b = blockIdx.z; b < g.batch; b += gridDim.z) {
    gk_mm_load<T> la = {A + gk_offset(amap, b), g.a_sm, g.a_sk};
    gk_mm_load<T> lb = {B + gk_offset(bmap, b), g.b_sk, g.b_sn};
    gk_mm_store<T> st = {Y + b * g.M * g.N, g.has_c ? C + gk_offset(cmap, b) : C, g.N, g.c_sm, g.c_sn,
                         g.alpha, g.beta, g.has_c, epi, ea, eb};
    for (int64_t mt = blockIdx.y; mt < mtiles; mt += gridDim.y)
      for (int64_t nt = blockIdx.x; nt < ntiles; nt += gridDim.x)
        gk_gemm_block<Acc>(la, lb, st, g.M, g.N, g.K, mt * GK_GEMM_TILE, nt * GK_GEMM_TILE);
  }
}
#endif

// Einsum as a contraction of one or two operands: out[o] = sum_r A(o, r) [* B(o, r)],
// r over the reduced labels in row-major order (ascending, one madd per term).
struct gk_einsum_args {
  int32_t out_rank, red_rank;
  int32_t has_b, pad_;
  int64_t red_total;
  int64_t out_dims[GK_MAX_RANK], red_dims[GK_MAX_RANK];
  int64_t a_out[GK_MAX_RANK], a_red[GK_MAX_RANK];
  int64_t b_out[GK_MAX_RANK], b_red[GK_MAX_RANK];
};

template <typename T>
GK_KERNEL void gk_einsum(const T* A, const T* B, T* Y, gk_einsum_args e, int64_t n) {
  typedef typename gk_acc<T>::type Acc;
  GK_KERNEL_LOOP(i, n) {
    int64_t rest = i, ao = 0, bo = 0;
    for (int32_t d = e.out_rank - 1; d >= 0; --d) {
      int64_t q = rest / e.out_dims[d], x = rest - q * e.out_dims[d];
      ao += x * e.a_out[d];
      bo += x * e.b_out[d];
      rest = q;
    }
    int64_t idx[GK_MAX_RANK];
    for (int32_t d = 0; d < e.red_rank; ++d) idx[d] = 0;
    int64_t ar = 0, br = 0;
    // Blocks of GK_GEMM_KBLOCK terms (blk), each added in order to acc, as GEMM does.
    Acc acc = (Acc)0, blk = (Acc)0;
    for (int64_t r = 0; r < e.red_total; ++r) {
      Acc a = (Acc)A[ao + ar];
      blk = e.has_b ? gk_madd(a, (Acc)B[bo + br], blk) : gk_wrap_add(blk, a);
      if ((r + 1) % GK_GEMM_KBLOCK == 0) {
        acc = gk_wrap_add(acc, blk);
        blk = (Acc)0;
      }
      // Odometer step over the reduced dims, keeping the two offsets in step.
      for (int32_t d = e.red_rank - 1; d >= 0; --d) {
        ar += e.a_red[d];
        br += e.b_red[d];
        if (++idx[d] < e.red_dims[d]) break;
        ar -= e.a_red[d] * e.red_dims[d];
        br -= e.b_red[d] * e.red_dims[d];
        idx[d] = 0;
      }
    }
    Y[i] = (T)gk_wrap_add(acc, blk);
  }
}
