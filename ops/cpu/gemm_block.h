// CPU twin of gk_gemm_block (ops/kernels/common/gemm.cuh): one 64x64 output tile
// per call. Operands are packed k-slice by k-slice into tile-wide panels
// (Ap[k][m], Bp[k][n], 64 wide, zero outside the tile), then an MR x NR register
// block runs over each slice with contiguous NR-wide rows the compiler vectorises.
// Every element still folds its K terms in ascending k with one gk_madd each,
// starting from zero, exactly as the CUDA block does, so results match bit for bit.
#pragma once

#include "ops/kernels/common/gemm.cuh"

#include <algorithm>
#include <cstdint>

namespace gk::cpu_gemm {

constexpr int kTile = GK_GEMM_TILE;
// 128 k-rows of two 64-wide f32 panels = 64 KB: both stay in L2 (2 MB per core on
// the Xeon these were measured on) while the B row block stays in L1.
constexpr int kKc = 128;

// Register block: 8 rows x 16 columns of f32 is 16 ymm accumulators (AVX-512VL
// gives 32 registers); f64 halves the rows to keep the same register count.
template <typename Acc>
struct Micro {
  static constexpr int MR = 8, NR = 16;
};
template <>
struct Micro<double> {
  static constexpr int MR = 4, NR = 16;
};

template <typename Acc, int MR, int NR>
inline __attribute__((always_inline)) void micro(int kc, const Acc* __restrict a, const Acc* __restrict b,
                                                 Acc* __restrict c) {
  Acc r[MR][NR];
  for (int i = 0; i < MR; ++i)
    for (int j = 0; j < NR; ++j) r[i][j] = c[i * kTile + j];
  for (int k = 0; k < kc; ++k) {
    const Acc* ak = a + k * kTile;
    const Acc* bk = b + k * kTile;
    for (int i = 0; i < MR; ++i) {
      const Acc av = ak[i];
      for (int j = 0; j < NR; ++j) r[i][j] = gk_madd(av, bk[j], r[i][j]);
    }
  }
  for (int i = 0; i < MR; ++i)
    for (int j = 0; j < NR; ++j) c[i * kTile + j] = r[i][j];
}

// acc (kTile x kTile, row-major) = A B over the tile's mt x nt valid part.
// pack_a(k0, kc, Ap) fills Ap[kk * kTile + i] for all i < kTile (zero past mt);
// pack_b(k0, kc, Bp) fills Bp[kk * kTile + j] likewise (zero past nt).
template <typename Acc, class PackA, class PackB>
void gemm_tile(int64_t mt, int64_t nt, int64_t K, const PackA& pack_a, const PackB& pack_b, Acc* acc) {
  constexpr int MR = Micro<Acc>::MR, NR = Micro<Acc>::NR;
  alignas(64) Acc ap[kKc * kTile];
  alignas(64) Acc bp[kKc * kTile];
  std::fill(acc, acc + kTile * kTile, Acc(0));
  const int mstrips = static_cast<int>((mt + MR - 1) / MR), nstrips = static_cast<int>((nt + NR - 1) / NR);
  for (int64_t k0 = 0; k0 < K; k0 += kKc) {
    const int kc = static_cast<int>(std::min<int64_t>(kKc, K - k0));
    pack_a(k0, kc, ap);
    pack_b(k0, kc, bp);
    for (int js = 0; js < nstrips; ++js)
      for (int is = 0; is < mstrips; ++is)
        micro<Acc, MR, NR>(kc, ap + is * MR, bp + js * NR, acc + is * MR * kTile + js * NR);
  }
}

// The common packers: a strided matrix (row stride, column stride) into a panel.
// Row-major A (k contiguous) is transposed into Ap; Bp rows are copied.
template <typename Acc, typename T>
inline void pack_rows_to_panel(const T* base, int64_t s_major, int64_t s_minor, int64_t n_major,
                               int64_t k0, int kc, Acc* panel) {
  // panel[kk * kTile + i] = base[i * s_major + (k0 + kk) * s_minor], i < n_major
  if (s_major == 1 && s_minor != 1) {  // transposed operand: rows of the panel are contiguous
    for (int kk = 0; kk < kc; ++kk) {
      const T* src = base + (k0 + kk) * s_minor;
      for (int64_t i = 0; i < n_major; ++i) panel[kk * kTile + i] = static_cast<Acc>(src[i]);
      for (int64_t i = n_major; i < kTile; ++i) panel[kk * kTile + i] = Acc(0);
    }
    return;
  }
  for (int64_t i = 0; i < n_major; ++i) {
    const T* src = base + i * s_major + k0 * s_minor;
    if (s_minor == 1)
      for (int kk = 0; kk < kc; ++kk) panel[kk * kTile + i] = static_cast<Acc>(src[kk]);
    else
      for (int kk = 0; kk < kc; ++kk) panel[kk * kTile + i] = static_cast<Acc>(src[kk * s_minor]);
  }
  for (int kk = 0; kk < kc; ++kk)
    for (int64_t i = n_major; i < kTile; ++i) panel[kk * kTile + i] = Acc(0);
}

template <typename Acc, typename T>
inline void pack_cols_to_panel(const T* base, int64_t s_k, int64_t s_n, int64_t nt, int64_t k0, int kc,
                               Acc* panel) {
  // panel[kk * kTile + j] = base[(k0 + kk) * s_k + j * s_n], j < nt
  for (int kk = 0; kk < kc; ++kk) {
    const T* src = base + (k0 + kk) * s_k;
    Acc* dst = panel + kk * kTile;
    if (s_n == 1)
      for (int64_t j = 0; j < nt; ++j) dst[j] = static_cast<Acc>(src[j]);
    else
      for (int64_t j = 0; j < nt; ++j) dst[j] = static_cast<Acc>(src[j * s_n]);
    for (int64_t j = nt; j < kTile; ++j) dst[j] = Acc(0);
  }
}

}  // namespace gk::cpu_gemm
